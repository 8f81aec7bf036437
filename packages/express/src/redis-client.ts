import { ERROR_CODES, VerifyKitError } from '@verify-kit/client';
import { createClient } from 'redis';
import { createLog, type Log } from './log.js';
import type { Logger } from './options.js';
import { withTimeout as withDeadline } from './with-timeout.js';

/**
 * What verify-kit uses of a node-redis (v6) client: `createClient()` from `redis` fits, whatever
 * its modules. Structural, so the kit's types do not depend on node-redis's generics.
 */
export interface RedisClientLike {
  readonly isOpen: boolean;
  readonly isReady: boolean;
  connect(): Promise<unknown>;
  duplicate(): RedisClientLike;
  publish(channel: string, message: string): Promise<unknown>;
  subscribe(channel: string, listener: (message: string, channel: string) => unknown): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
  sendCommand(args: string[]): Promise<unknown>;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'ready' | 'end', listener: () => void): unknown;
  close(): Promise<unknown>;
  destroy(): unknown;
  readonly options?: { url?: string; password?: string; username?: string } | undefined;
}

/** `client` (yours: you connect and close it) or `url` (verify-kit opens and closes its own). */
export interface RedisConnectionOptions {
  client?: RedisClientLike;
  /** e.g. `redis://:password@127.0.0.1:6379` or `rediss://…`. */
  url?: string;
  /** Warnings when Redis fails (never with a password); default console.warn. `console` works. */
  logger?: Logger;
}

/** Every Redis call of the kit gives up after this: a hung Redis costs push latency, not requests. */
export const REDIS_COMMAND_TIMEOUT_MS = 2000;

/** The Redis factories' INVALID_OPTIONS, with the `details` shape of every other options error. */
export function invalidOptions(factory: string, problem: string): VerifyKitError {
  return new VerifyKitError(ERROR_CODES.INVALID_OPTIONS, `${factory}: invalid options: ${problem}`, {
    details: [{ path: '', message: problem }],
  });
}

function isClient(value: unknown): value is RedisClientLike {
  if (typeof value !== 'object' || value === null) return false;
  const client = value as Record<string, unknown>;
  return ['connect', 'duplicate', 'publish', 'subscribe', 'sendCommand', 'on', 'close', 'destroy'].every(
    (name) => typeof client[name] === 'function',
  );
}

/** The passwords a log line must never show: from the URL and from the client's options. */
function secretsOf(url: string | undefined, client: RedisClientLike | undefined): string[] {
  const secrets: string[] = [];
  for (const candidate of [url, client?.options?.url]) {
    if (typeof candidate !== 'string' || !URL.canParse(candidate)) continue;
    const { password } = new URL(candidate);
    if (password) secrets.push(password, decodeURIComponent(password));
  }
  const password = client?.options?.password;
  if (typeof password === 'string') secrets.push(password);
  return secrets;
}

export interface Connection {
  /** The client commands go through (yours, or the one opened from `url`). */
  client: RedisClientLike;
  /** true when verify-kit opened `client` from a URL (and so closes it). */
  owned: boolean;
  /** Resolves when an owned client first connects (or gives up when closed); at once for yours. */
  connected: Promise<void>;
  log: Log;
  /** Logs the first failure of a connection, and its recovery, not every reconnection attempt. */
  watch(client: RedisClientLike, name: string): void;
}

/** Checks `{ client } | { url }` and opens the URL's client (in the background). */
export function openConnection(factory: string, options: RedisConnectionOptions | undefined): Connection {
  if (typeof options !== 'object' || options === null) {
    throw invalidOptions(factory, `pass { client } (a node-redis client) or { url: process.env.REDIS_URL }`);
  }
  const { client, url, logger } = options;
  if ((client === undefined) === (url === undefined)) {
    throw invalidOptions(factory, 'pass exactly one of client (a node-redis client) and url (redis://…)');
  }
  if (client !== undefined && !isClient(client)) {
    throw invalidOptions(
      factory,
      'client must be a node-redis v6 client: createClient({ url }) from "redis"',
    );
  }
  if (
    url !== undefined &&
    (typeof url !== 'string' || !/^rediss?:$/.test(URL.canParse(url) ? new URL(url).protocol : ''))
  ) {
    // The value is not repeated: it may hold a password.
    throw invalidOptions(factory, 'url must be a redis:// or rediss:// URL, e.g. process.env.REDIS_URL');
  }
  const log = createLog(logger, secretsOf(url, client));
  const watch = (watched: RedisClientLike, name: string) => {
    let down = false;
    // node-redis emits 'error' for every failed reconnection: without a listener the process dies.
    watched.on('error', (error: Error) => {
      if (down) return;
      down = true;
      log.warn(`redis ${name} connection failed; it reconnects in the background`, { error: error.message });
    });
    watched.on('ready', () => {
      if (!down) return;
      down = false;
      log.info(`redis ${name} connection is back`);
    });
  };
  if (client !== undefined) return { client, owned: false, connected: Promise.resolve(), log, watch };
  const own = createClient({ url }) as unknown as RedisClientLike;
  watch(own, 'publisher');
  const connected = own.connect().then(
    () => undefined,
    () => undefined, // reported by the 'error' listener; a client closed before it connected lands here too
  );
  return { client: own, owned: true, connected, log, watch };
}

/** Rejects after `ms` (default: the kit's Redis timeout). */
export function withTimeout<T>(promise: Promise<T>, ms = REDIS_COMMAND_TIMEOUT_MS): Promise<T> {
  return withDeadline(promise, ms);
}

/** Closes a client politely when it is connected, at once otherwise; never throws. */
export async function shutDown(client: RedisClientLike): Promise<void> {
  try {
    if (client.isReady) await withTimeout(client.close());
    else client.destroy();
  } catch {
    try {
      client.destroy();
    } catch {
      // Already closed.
    }
  }
}

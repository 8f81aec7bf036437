import { ERROR_CODES, VerifyKitError } from '@verify-kit/client/fetch';
import { createClient } from 'redis';
import type { Logger } from '../shared/log.js';
import { createLog, type Log } from '../shared/log.js';
import { withTimeout as withDeadline } from '../shared/with-timeout.js';

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
  /** `abortSignal`: node-redis drops the command from its queue if it is not sent yet. */
  sendCommand(args: string[], options?: { abortSignal?: AbortSignal }): Promise<unknown>;
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
  const own = createClient({ url, socket: { reconnectStrategy } }) as unknown as RedisClientLike;
  watch(own, 'publisher');
  const connected = own.connect().then(
    () => undefined,
    () => undefined, // reported by the 'error' listener; a client closed before it connected lands here too
  );
  return { client: own, owned: true, connected, log, watch };
}

/**
 * The kit's own clients try again every 100 ms to 500 ms (node-redis's default backs off to 2 s):
 * a command waiting out a Redis restart (commandRunner) is sent within half a second of Redis's return.
 */
export function reconnectStrategy(retries: number): number {
  return Math.min(100 * 2 ** retries, 500) + Math.floor(Math.random() * 50);
}

export interface CommandOptions {
  /**
   * false for a command that must not run twice (a compare-and-set: a repeat after a lost answer
   * would report the writer's own success as somebody else's). Default true.
   */
  repeatable?: boolean;
}

/**
 * Sends the kit's commands on `client`, riding out a short reconnect (a Redis restart): each call
 * waits for the client to be ready again, then is sent; a repeatable command whose connection
 * dropped before its answer is sent again. Whatever happens, a call settles within `ms`: Redis not
 * back by then rejects (the caller fails closed), never a hang and never a pass.
 */
/** Commands that only read: harmless if node-redis sends one after its caller gave up. */
const READS = new Set(['GET', 'HGET', 'MGET', 'EXISTS', 'PTTL', 'PING']);

export function commandRunner(client: RedisClientLike, ms = REDIS_COMMAND_TIMEOUT_MS) {
  const waiting = new Set<() => void>();
  client.on('ready', () => {
    for (const wake of [...waiting]) wake();
  });
  const ready = (until: number) =>
    new Promise<void>((resolve, reject) => {
      if (client.isReady) return resolve();
      if (!client.isOpen) return reject(new Error('redis client is closed'));
      const wake = () => {
        clearTimeout(timer);
        waiting.delete(wake);
        resolve();
      };
      const timer = setTimeout(
        () => {
          waiting.delete(wake);
          reject(new Error(`redis not connected within ${ms} ms`));
        },
        Math.max(0, until - Date.now()),
      );
      waiting.add(wake);
    });
  return async (args: string[], { repeatable = true }: CommandOptions = {}): Promise<unknown> => {
    const until = Date.now() + ms;
    for (;;) {
      await ready(until);
      try {
        const left = Math.max(1, until - Date.now());
        // The signal takes a command not sent in time out of node-redis's queue: it never runs late.
        // A read on a connected client needs none (one running late changes nothing), and creating
        // the signal is a measurable share of the gate's work inside a visit (BENCHMARKS.md).
        const sent =
          client.isReady && READS.has(args[0] ?? '')
            ? client.sendCommand(args)
            : client.sendCommand(args, { abortSignal: AbortSignal.timeout(left) });
        return await withDeadline(sent, left);
      } catch (error) {
        // The connection went (node-redis rejects what was awaiting an answer), or Redis is still
        // loading its data after a restart: a repeatable command goes again once it is back.
        const lost = !client.isReady || (error instanceof Error && error.message.startsWith('LOADING'));
        if (!repeatable || !lost || Date.now() >= until) throw error;
      }
    }
  };
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

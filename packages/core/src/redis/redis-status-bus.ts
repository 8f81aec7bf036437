import type { StatusBus, StatusHint, StatusListener } from '../status/status-bus.js';
import type { ReplayStore } from '../webhooks/replay-store.js';
import {
  commandRunner,
  invalidOptions,
  openConnection,
  type RedisClientLike,
  type RedisConnectionOptions,
  shutDown,
} from './redis-client.js';
import { createRedisReplayStore } from './redis-replay-store.js';

export interface RedisStatusBusOptions extends RedisConnectionOptions {
  /** The pub/sub channel every instance shares. Default `verify-kit:status`. */
  channel?: string;
  /**
   * Key prefix of the shared webhook-ids (`replayStore`). Default `verify-kit:webhook-id:`, apart
   * from the binding store's `verify-kit:status:` records. Several deployments on one Redis: one each.
   */
  replayPrefix?: string;
}

export interface RedisStatusBus extends StatusBus {
  /**
   * Resolves once this instance listens on the channel and, with `url`, can publish (or once the bus
   * is closed); never rejects, and waits while Redis is unreachable. Optional to await: until then hints published elsewhere do
   * not reach this instance, whose long-polls still re-read every pollIntervalMs.
   */
  ready(): Promise<void>;
  /** Shared memory of webhook-ids on the same connection (prefix `replayPrefix`), for createVerifyKit({ replayStore }). */
  readonly replayStore: ReplayStore;
  /** For kit.health(): both connections are up (node-redis reconnects and re-subscribes by itself). */
  health(): boolean;
  /** Stops listening and closes the connections verify-kit opened (not a client you passed). Idempotent. */
  close(): Promise<void>;
}

export const DEFAULT_STATUS_CHANNEL = 'verify-kit:status';
const MAX_MESSAGE_BYTES = 4096;

interface Message {
  v: 1;
  /** The publishing bus: it already delivered locally and skips its own echo. */
  origin: string;
  identificationId: string;
  hint: StatusHint;
}

/** Anyone with access to Redis can publish on the channel: messages are checked, and only hints. */
function parseMessage(raw: string): Message | undefined {
  if (typeof raw !== 'string' || raw.length > MAX_MESSAGE_BYTES) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { v, origin, identificationId, hint } = value as Record<string, unknown>;
  if (v !== 1 || typeof origin !== 'string' || typeof identificationId !== 'string') return undefined;
  if (identificationId.length === 0 || identificationId.length > 256) return undefined;
  if (typeof hint !== 'object' || hint === null) return undefined;
  const { type, documentSubmitted, status, occurredAt } = hint as Record<string, unknown>;
  return {
    v,
    origin,
    identificationId,
    hint: {
      ...(typeof type === 'string' ? { type } : {}),
      ...(typeof documentSubmitted === 'boolean' ? { documentSubmitted } : {}),
      // Only a refusal or a re-read can come of it (decisions.ts onHint): never a grant.
      ...(typeof status === 'string' && status.length <= 64 ? { status } : {}),
      ...(typeof occurredAt === 'number' && Number.isSafeInteger(occurredAt) ? { occurredAt } : {}),
    },
  };
}

/** Connects the dedicated subscriber and passes on each well-formed message; resolves false on failure. */
function listen(subscriber: RedisClientLike, channel: string, onMessage: (message: Message) => void) {
  return (async () => {
    await subscriber.connect();
    await subscriber.subscribe(channel, (raw) => {
      const message = parseMessage(raw);
      if (message !== undefined) onMessage(message);
    });
  })().then(
    () => true,
    () => false, // reported by the connection's 'error' listener; closed before connecting lands here too
  );
}

/**
 * A StatusBus on Redis pub/sub (node-redis v6): a webhook received by one instance wakes the
 * long-polls of every instance at once. The publisher delivers to its own listeners directly (so a
 * broken Redis never delays this instance) and skips its echo; a dedicated subscriber connection
 * (`duplicate()`) listens. Redis failures are logged once and only cost push latency between
 * instances: the gate always reads the upstream, so nothing here can let anyone through.
 */
export function createRedisStatusBus(options: RedisStatusBusOptions): RedisStatusBus {
  const factory = 'createRedisStatusBus';
  const channel = options?.channel ?? DEFAULT_STATUS_CHANNEL;
  if (typeof channel !== 'string' || channel.length === 0 || channel.length > 256) {
    throw invalidOptions(factory, 'channel must be a non-empty string (default "verify-kit:status")');
  }
  const connection = openConnection(factory, options);
  const { client, log } = connection;
  const origin = crypto.randomUUID();
  const listeners = new Set<StatusListener>();
  let closed = false;
  let publishFailing = false;
  // A publish made while Redis restarts waits for it (2 s at most): the other instances still hear it.
  const command = commandRunner(client);

  const deliver = (identificationId: string, hint: StatusHint) => {
    for (const listener of [...listeners]) {
      try {
        listener(identificationId, hint);
      } catch {
        // A listener's failure is its own; the bus keeps delivering.
      }
    }
  };

  const subscriber: RedisClientLike = client.duplicate();
  connection.watch(subscriber, 'subscriber');
  const listening = listen(subscriber, channel, (message) => {
    if (message.origin !== origin && !closed) deliver(message.identificationId, message.hint);
  });

  const replayStore = createRedisReplayStore({
    client,
    ...(options?.replayPrefix === undefined ? {} : { prefix: options.replayPrefix }),
  });

  let closing: Promise<void> | undefined;
  return {
    publish(identificationId, hint) {
      if (closed) return;
      deliver(identificationId, hint);
      const message: Message = { v: 1, origin, identificationId, hint };
      const fail = (reason: string) => {
        if (publishFailing) return;
        publishFailing = true;
        log.warn(`redis status bus: ${reason}; webhooks wake this instance only until it recovers`);
      };
      return command(['PUBLISH', channel, JSON.stringify(message)]).then(
        () => {
          publishFailing = false;
        },
        (error: unknown) =>
          fail(`publish failed (${error instanceof Error ? error.message : String(error)})`),
      );
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async ready() {
      await Promise.all([listening, connection.connected]);
    },
    health: () => !closed && client.isReady && subscriber.isReady,
    replayStore,
    close() {
      closing ??= (async () => {
        closed = true;
        listeners.clear();
        await shutDown(subscriber);
        await listening;
        if (connection.owned) await shutDown(client);
      })();
      return closing;
    },
  };
}

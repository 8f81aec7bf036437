import type { Retention } from '../bindings/retention.js';
import type { LimitRedisClient } from '../limits/rate-limits.js';
import type { ReplayStore } from '../webhooks/replay-store.js';
import {
  createRedisBindingStore,
  DEFAULT_BINDING_PREFIX,
  type RedisBindingStore,
} from './redis-binding-store.js';
import { invalidOptions, openConnection, type RedisConnectionOptions, shutDown } from './redis-client.js';
import { createRedisStatusBus, type RedisStatusBus } from './redis-status-bus.js';

export interface RedisKitStoreOptions {
  /**
   * One prefix for every key and the channel. Default `verify-kit:`, which keeps the keys of the
   * factories' defaults: `<prefix>account:`, `<prefix>status:`, `<prefix>decision:` (bindings,
   * status records, decisions), `<prefix>webhook-id:` (replay), `<prefix>limit:` (creation limits,
   * `<prefix>limit:read:` the read budget), `<prefix>send:` (send counts), channel `<prefix>status`.
   */
  prefix?: string;
  /** How long bindings and status records are kept, as createRedisBindingStore's `retention`. */
  retention?: Retention;
}

/**
 * Every part of the kit's state on one Redis, for `createVerifyKit({ store })`: each part is the
 * factory's own (createRedisBindingStore, createRedisStatusBus and its replayStore; the counts
 * with rate-limiter-flexible on the same client).
 */
export interface RedisKitStore {
  readonly bindings: RedisBindingStore;
  readonly statusBus: RedisStatusBus;
  readonly replayStore: ReplayStore;
  readonly counts: {
    readonly redis: LimitRedisClient;
    readonly limitPrefix: string;
    readonly sendPrefix: string;
  };
  /** Resolves once connected (with `url`) and listening on the channel; never rejects. Optional to await. */
  ready(): Promise<void>;
  /** Every part answers: the connection (PING) and the status bus's subscriber. */
  health(): Promise<boolean>;
  /**
   * Closes what the store opened: the status bus's subscriber and, with `url`, its connection (not a
   * client you gave it). `kit.close()` and `kit.shutdown()` call it. Idempotent.
   */
  close(): Promise<void>;
}

const MAX_PREFIX = 200;

/**
 * `createVerifyKit({ store: redisStore({ url: process.env.REDIS_URL }) })`: bindings, status
 * records, decisions, replay keys, creation limits, the read budget, send counts and the status bus
 * shared by every instance, on one connection (and the bus's subscriber). `client`: your connected
 * node-redis v6 client (you close it); `url`: the store opens its own, and the kit closes it.
 */
export function redisStore(
  connection: RedisConnectionOptions,
  options: RedisKitStoreOptions = {},
): RedisKitStore {
  const factory = 'redisStore';
  const prefix = options?.prefix ?? DEFAULT_BINDING_PREFIX;
  if (typeof prefix !== 'string' || prefix.length > MAX_PREFIX) {
    throw invalidOptions(factory, `prefix must be a string of at most ${MAX_PREFIX} characters`);
  }
  const opened = openConnection(factory, connection);
  const { client, owned } = opened;
  const counter = client as unknown as Partial<Record<'eval' | 'multi' | 'del', unknown>>;
  if (!(['eval', 'multi', 'del'] as const).every((name) => typeof counter[name] === 'function')) {
    if (owned) client.destroy();
    throw invalidOptions(
      factory,
      'client must be a node-redis v6 client: createClient({ url }) from "redis"',
    );
  }
  // The factories on this one client: theirs to use, the store's (or yours) to close.
  const shared = { client, ...(connection.logger === undefined ? {} : { logger: connection.logger }) };
  const bindings = createRedisBindingStore({
    ...shared,
    prefix,
    ...(options?.retention === undefined ? {} : { retention: options.retention }),
  });
  const statusBus = createRedisStatusBus({
    ...shared,
    channel: `${prefix}status`,
    replayPrefix: `${prefix}webhook-id:`,
  });
  let closing: Promise<void> | undefined;
  return {
    bindings,
    statusBus,
    replayStore: statusBus.replayStore,
    counts: {
      redis: client as unknown as LimitRedisClient,
      limitPrefix: `${prefix}limit:`,
      sendPrefix: `${prefix}send:`,
    },
    async ready() {
      await Promise.all([opened.connected, statusBus.ready()]);
    },
    async health() {
      return statusBus.health() && (await bindings.health?.()) === true;
    },
    close() {
      closing ??= (async () => {
        await statusBus.close();
        await bindings.close();
        if (owned) await shutDown(client);
      })();
      return closing;
    },
  };
}

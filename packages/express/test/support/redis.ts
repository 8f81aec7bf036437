import { EventEmitter, once } from 'node:events';
import type { Sandbox } from '@verify-kit/sandbox';
import {
  capturingLogger,
  expectKeyNeverLeaked,
  type RedisServer,
  startRedisServer,
} from '@verify-kit/testkit';
import { createClient } from 'redis';
import { afterAll, beforeAll } from 'vitest';
import type { Logger, RecordStore, StoredDecision } from '../../src/index.js';
import {
  createRedisBindingStore,
  createRedisStatusBus,
  type RedisBindingStore,
  type RedisStatusBus,
} from '../../src/redis.js';
import { type AppOptions, type AppSetup, signedInUser, startApp, type TestApp } from './app.js';
import { startWebhookingSandbox } from './fixtures.js';

export type RedisClient = ReturnType<typeof createClient>;

// Longer than any wait of the Redis tests: only a pushed hint can answer a long-poll before its `wait` ends.
export const POLL_INTERVAL_MS = 10_000;
export const WAIT_SECONDS = 8;

/**
 * `logger`, a promise of the next long-poll the kit logging to it starts waiting, and how many have
 * started (each holds its slot of maxLongPolls by then).
 */
export function watchLongPolls(logger: Logger): {
  logger: Logger;
  nextWait(): Promise<void>;
  waits(): number;
} {
  const signals = new EventEmitter();
  let waits = 0;
  return {
    logger: {
      ...logger,
      debug(message, meta) {
        logger.debug?.(message, meta);
        if (!message.startsWith('GET /status: long-poll waiting')) return;
        waits++;
        signals.emit('waiting');
      },
    },
    nextWait: () => once(signals, 'waiting').then(() => undefined),
    waits: () => waits,
  };
}

/** A decision the kit asked `store` to put, once the store answered: whether it stored it (newer wins). */
export interface DecisionPut {
  decision: StoredDecision;
  stored: boolean;
}

/** Every decision put `store` answers from now on, in the order they settle (failed ones too, as not stored). */
export function recordDecisionPuts(store: RecordStore): DecisionPut[] {
  const puts: DecisionPut[] = [];
  const put = store.decisions.put.bind(store.decisions);
  store.decisions.put = async (identificationId, decision, ttlMs) => {
    let stored = false;
    try {
      stored = await put(identificationId, decision, ttlMs);
      return stored;
    } finally {
      puts.push({ decision, stored });
    }
  };
  return puts;
}

export interface BusAppOptions {
  baseUrl: string;
  apiKey: string;
  webhookSecret: string;
  bus: RedisStatusBus;
  logger: Logger;
}

/** An app whose kit shares long-poll hints and webhook ids through `bus`, and polls too rarely to matter. */
export function startBusApp(options: BusAppOptions, setup: AppSetup = {}): Promise<TestApp> {
  const { bus, ...kit } = options;
  return startApp(
    { ...kit, statusBus: bus, replayStore: bus.replayStore, pollIntervalMs: POLL_INTERVAL_MS },
    setup,
  );
}

/** A node-redis client of yours, connected (its errors while Redis is down are expected, not thrown). */
export async function connectedClient(url: string): Promise<RedisClient> {
  const client: RedisClient = createClient({ url });
  client.on('error', () => {});
  await client.connect();
  return client;
}

/** Closes it politely while Redis answers, at once otherwise. */
export async function closeClient(client: RedisClient): Promise<void> {
  if (client.isReady) await client.close();
  else client.destroy();
}

export interface RedisKitSetup extends AppSetup {
  /** Share long-poll hints and webhook ids through a Redis status bus (and its replay store) too. */
  bus?: boolean;
}

export interface RedisKit {
  app: TestApp;
  store: RedisBindingStore;
  /** Closes the app, then its status bus and binding store. */
  close(): Promise<void>;
}

/**
 * An instance of the kit on a real Redis: its binding store there (its status bus too with `bus`),
 * the account of a request the user of the app's test sign-in.
 */
export async function startRedisKit(
  redisUrl: string,
  options: AppOptions & { baseUrl: string; apiKey: string },
  { bus: withBus, ...setup }: RedisKitSetup = {},
): Promise<RedisKit> {
  const store = createRedisBindingStore({ url: redisUrl, logger: capturingLogger() });
  const bus = withBus ? createRedisStatusBus({ url: redisUrl, logger: capturingLogger() }) : undefined;
  await bus?.ready();
  const app = await startApp(
    {
      accountOf: signedInUser,
      bindingStore: store,
      ...(bus ? { statusBus: bus, replayStore: bus.replayStore } : {}),
      ...options,
    },
    setup,
  );
  return {
    app,
    store,
    async close() {
      await app.close();
      await bus?.close();
      await store.close();
    },
  };
}

export interface RedisPair {
  redis: RedisServer;
  sandbox: Sandbox;
  /** The instance the sandbox's signed webhooks reach. */
  a: TestApp;
  /** The instance that hears of them through Redis only. */
  b: TestApp;
}

/**
 * Two instances of the kit on one real redis-server (startRedisKit), the real sandbox sending its
 * signed webhooks to A, for the tests of one file: started before them, closed after, and every
 * response and log line of the run checked for the key. Read `redis`/`sandbox`/`a`/`b` in tests.
 */
export function useRedisPair(
  apiKey: string,
  webhookSecret: string,
  options: AppOptions = {},
  { bus }: { bus?: boolean } = {},
): RedisPair {
  const pair = {} as RedisPair;
  const instances: RedisKit[] = [];
  beforeAll(async () => {
    pair.redis = await startRedisServer();
    const { sandbox, listening } = await startWebhookingSandbox(apiKey, webhookSecret);
    pair.sandbox = sandbox;
    const start = (setup: AppSetup) =>
      startRedisKit(
        pair.redis.url,
        { baseUrl: sandbox.url, apiKey, webhookSecret, ...options },
        { ...setup, bus },
      );
    const a = await start({ listening });
    instances.push(a);
    pair.a = a.app;
    const b = await start({});
    instances.push(b);
    pair.b = b.app;
  });
  afterAll(async () => {
    for (const instance of instances.reverse()) await instance.close();
    await pair.sandbox?.close();
    await pair.redis?.stop();
    expectKeyNeverLeaked(apiKey);
  });
  return pair;
}

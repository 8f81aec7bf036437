import { EventEmitter, once } from 'node:events';
import { createClient } from 'redis';
import type { Logger } from '../../src/index.js';
import type { RedisStatusBus } from '../../src/redis.js';
import { type AppSetup, startApp, type TestApp } from './app.js';

export type RedisClient = ReturnType<typeof createClient>;

// Longer than any wait of the Redis tests: only a pushed hint can answer a long-poll before its `wait` ends.
export const POLL_INTERVAL_MS = 10_000;
export const WAIT_SECONDS = 8;

/** `logger`, and a promise of the next long-poll the kit logging to it starts waiting. */
export function watchLongPolls(logger: Logger): { logger: Logger; nextWait(): Promise<void> } {
  const signals = new EventEmitter();
  return {
    logger: {
      ...logger,
      debug(message, meta) {
        logger.debug?.(message, meta);
        if (message.startsWith('GET /status: long-poll waiting')) signals.emit('waiting');
      },
    },
    nextWait: () => once(signals, 'waiting').then(() => undefined),
  };
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

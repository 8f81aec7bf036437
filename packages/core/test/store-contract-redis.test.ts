// The published store contract (@verify-kit/core/testing) on the Redis store, against a real
// redis-server: redisStore's bindings, records, decisions and webhook ids.
import { capturingLogger, type RedisServer, startRedisServer } from '@verify-kit/testkit';
import { afterAll, beforeAll } from 'vitest';
import { redisStore } from '../src/redis.js';
import { runStoreContract } from '../src/testing.js';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});

runStoreContract(
  async () => {
    const store = redisStore({ url: redis.url, logger: capturingLogger() });
    await store.ready();
    return store;
  },
  { name: 'the Redis store' },
);

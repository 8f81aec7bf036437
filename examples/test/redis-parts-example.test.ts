import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { type RedisServer, startRedisServer } from '@verify-kit/testkit';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { serveSignedIn } from './support/kit-app.js';

// The express README's five-part form ("Several instances (Redis)": what `store: redisStore(...)`
// expands to), run against the real sandbox and a real redis-server: every part shared, none left
// per process (no startup warning), each in Redis.
let sandbox: Sandbox;
let redis: RedisServer;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, reviewDelayMs: 0 });
  redis = await startRedisServer();
  vi.stubEnv('IDV_BASE_URL', sandbox.url);
  vi.stubEnv('IDV_API_KEY', sandbox.apiKey);
  vi.stubEnv('REDIS_URL', redis.url);
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await sandbox.close();
  await redis.stop();
});

test('several instances, part by part: every part in Redis, no part left per process', async () => {
  const warn = vi.spyOn(console, 'warn');
  const { kit, bus, close, redis: client } = await import('../express/redis-parts.js');
  const app = await serveSignedIn(kit, 'ada');
  try {
    expect(warn.mock.calls.flat().join('\n')).not.toMatch(/shared between instances/);
    await bus.ready();
    expect(await kit.health()).toMatchObject({ ok: true, bus: 'ok', store: 'ok' });
    expect((await app.browser.post('/identity/session')).status).toBe(201);
    expect(await client.keys('verify-kit:account:*')).toEqual(['verify-kit:account:ada']);
    expect((await client.keys('verify-kit:limit:*')).length).toBeGreaterThan(0);
  } finally {
    warn.mockRestore();
    await app.close();
    await kit.close();
    await close();
  }
  expect(client.isOpen).toBe(false);
});

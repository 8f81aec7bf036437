// A redis-server restart in the middle of people's requests: the kit's Redis binding store waits
// for Redis to come back (within its 2 s) instead of failing at once, so a restart of about a
// second shows nobody an error; a Redis away for longer still fails closed within the timeout.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REDIS_COMMAND_TIMEOUT_MS } from '@verify-kit/core/internal/redis/redis-client';
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import {
  capturingLogger,
  expectKeyNeverLeaked,
  type RedisServer,
  startRedisServer,
} from '@verify-kit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionResponseBody } from '../src/index.js';
import { createRedisBindingStore, type RedisBindingStore } from '../src/redis.js';
import { signedInUser, startApp, type TestApp } from './support/app.js';
import { verifyIn } from './support/fixtures.js';

const API_KEY = 'sk_test_redis_restart_8b2f';

let dataDir: string;
let redis: RedisServer;
let sandbox: Sandbox;
let store: RedisBindingStore;
let app: TestApp;

beforeAll(async () => {
  // Persistent, as a production Redis is: the restart keeps the bindings.
  dataDir = mkdtempSync(path.join(tmpdir(), 'verify-kit-redis-restart-'));
  redis = await startRedisServer({ dataDir });
  sandbox = await startSandbox({ apiKey: API_KEY, reviewDelayMs: 0 });
  store = createRedisBindingStore({ url: redis.url, logger: capturingLogger() });
  app = await startApp({
    baseUrl: sandbox.url,
    apiKey: API_KEY,
    accountOf: signedInUser,
    bindingStore: store,
    // Every gated request reads: each one goes to the store and the service.
    freshness: 'every-request',
  });
});

afterAll(async () => {
  await app?.close();
  await store?.close();
  await sandbox?.close();
  await redis?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  expectKeyNeverLeaked(API_KEY);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the Redis binding store while redis-server restarts', () => {
  it('a request arriving while Redis is away waits for it and is answered: the gated page, a new verification', async () => {
    const verified = await app.signedIn('ada');
    await verifyIn(sandbox, verified);
    expect((await verified.get('/api/data')).status).toBe(200);
    const newcomer = await app.signedIn('grace');

    await redis.stop();
    const gated = verified.get('/api/data');
    const created = newcomer.post<SessionResponseBody>('/identity/session');
    // Both requests are at the store, waiting, while Redis is down; then it is back (well within
    // the 2 s: starting redis-server and reconnecting take a few hundred ms).
    await sleep(250);
    redis = await startRedisServer({ port: redis.port, dataDir });

    expect((await gated).status).toBe(200);
    const answer = await created;
    expect(answer.status).toBe(201);
    expect(answer.json.sessionCode).toEqual(expect.any(String));
    expect(await app.kit.health()).toMatchObject({ ok: true, store: 'ok' });
  });

  it('a Redis away longer than the timeout: 503 BINDING_STORE_UNAVAILABLE within it, never a pass; then served again', async () => {
    const verified = await app.signedIn('edsger');
    await verifyIn(sandbox, verified);
    expect((await verified.get('/api/data')).status).toBe(200);
    const newcomer = await app.signedIn('barbara');
    const passedBefore = app.passed;

    await redis.stop();
    const started = Date.now();
    const [gated, created] = await Promise.all([
      verified.get<{ error: { code: string } }>('/api/data'),
      newcomer.post<{ error: { code: string } }>('/identity/session'),
    ]);
    const answeredAfterMs = Date.now() - started;
    expect([gated.status, gated.json.error.code]).toEqual([503, 'BINDING_STORE_UNAVAILABLE']);
    expect([created.status, created.json.error.code]).toEqual([503, 'BINDING_STORE_UNAVAILABLE']);
    expect(app.passed).toBe(passedBefore);
    // A bound, not a speed figure: each waits out its 2 s and fails; neither hangs with Redis.
    expect(answeredAfterMs).toBeLessThan(2 * REDIS_COMMAND_TIMEOUT_MS);
    expect(await app.kit.health()).toMatchObject({ ok: false, store: 'down' });

    redis = await startRedisServer({ port: redis.port, dataDir });
    await expect.poll(async () => (await verified.get('/api/data')).status).toBe(200);
  });
});

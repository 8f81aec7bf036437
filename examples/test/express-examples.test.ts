import type { VerifyKit } from '@verify-kit/express';
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { Browser, type RedisServer, startRedisServer, until } from '@verify-kit/testkit';
import { createClient } from 'redis';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { serveSignedIn } from './support/kit-app.js';
import { submitDocument } from './support/phone.js';

// The express README's fragments (accounts on a Redis binding store, lifecycle events, the five-part
// form `store: redisStore(...)` expands to), run against the real sandbox and a real redis-server.
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

interface Created {
  sessionCode: string;
}

test("accounts: the verification is bound to the signed-in account in the README's Redis binding store", async () => {
  const { kit } = await import('../express/accounts.js');
  const app = await serveSignedIn(kit, 'ada');
  const db = createClient({ url: redis.url });
  await db.connect();
  try {
    const created = await app.browser.post<Created>('/identity/session');
    expect(created.status).toBe(201);
    expect(await db.keys('verify-kit:account:*')).toEqual(['verify-kit:account:ada']);
    expect(await kit.statusOfAccount('ada')).toMatchObject({ phase: 'awaiting_user', approved: false });
  } finally {
    await db.close();
    await app.close();
    await kit.close();
  }
});

test('lifecycle: an approval marks the account verified, and the audit log hears of it', async () => {
  const { kit, verifiedAccounts, auditEvents } = await import('../express/lifecycle.js');
  const app = await serveSignedIn(kit as VerifyKit, 'grace');
  try {
    const created = await app.browser.post<Created>('/identity/session');
    expect(created.status).toBe(201);
    expect(verifiedAccounts.has('grace')).toBe(false);
    await submitDocument(sandbox, created.json.sessionCode);
    // The browser follows the verification (GET /status); each read of the service is compared.
    await until(async () => {
      await app.browser.get('/identity/status');
      return verifiedAccounts.has('grace');
    }, 'onStatusChange APPROVED');
    await app.browser.get('/identity/status');
    expect([...verifiedAccounts]).toEqual(['grace']);
    expect(auditEvents.map((event) => event.type)).toContain('session.created');
    expect(auditEvents[0]).toMatchObject({ accountId: 'grace' });
  } finally {
    await app.close();
    await kit.close();
  }
});

test('several instances: sessions in Redis behind a proxy, a readiness route, and the shutdown drains then closes the server and Redis', async () => {
  vi.stubEnv('SESSION_SECRET', 'examples');
  vi.stubEnv('PORT', '0');
  const listenersBefore = process.listeners('SIGTERM');
  const { redis: client, server } = await import('../express/redis.js');
  const shutdown = process.listeners('SIGTERM').find((listener) => !listenersBefore.includes(listener));
  if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
  const browser = new Browser(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
  // Behind the load balancer (`trust proxy`): the request came over https, so the Secure cookie is set.
  const https = { 'x-forwarded-proto': 'https' };
  try {
    const page = await browser.navigate('/account');
    expect(page.status).toBe(303);
    expect(page.headers.location).toMatch(/^\/verify\?returnTo=/);
    const created = await browser.fetch('POST', '/identity/session', { json: {}, headers: https });
    expect(created.status).toBe(201);
    const session = [created.headers['set-cookie'] ?? []]
      .flat()
      .find((line) => line.startsWith('__Host-sid='));
    expect(session).toMatch(/; Path=\/; .*Secure/);
    expect((await client.keys('sess:*')).length).toBeGreaterThan(0); // the session store is Redis
    expect((await client.keys('verify-kit:limit:*')).length).toBeGreaterThan(0); // and the kit's store
    const status = await browser.fetch<{ phase: string }>('GET', '/identity/status', { headers: https });
    expect(status.json.phase).toBe('awaiting_user');
    expect((await browser.get('/ready')).status).toBe(200);
  } finally {
    const stopping = (shutdown as () => Promise<void>)();
    // The balancer's probe fails at once; the instance still serves, closing each connection.
    const probe = await browser.get('/ready');
    expect(probe.status).toBe(503);
    expect(probe.headers.connection).toBe('close');
    await stopping;
  }
  expect(server.listening).toBe(false);
  expect(client.isOpen).toBe(false);
});

// "Several instances (Redis)": what `store: redisStore(...)` expands to, every part shared, none
// left per process (no startup warning), each in Redis.
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

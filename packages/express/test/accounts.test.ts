// A verification belongs to the account (accountOf + a BindingStore), over real HTTP against the
// real sandbox; several instances share a real redis-server.
import { generateWebhookSecret } from '@verify-kit/client';
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import {
  type Browser,
  capturingLogger,
  expectKeyNeverLeaked,
  type Listening,
  listen,
  type RedisServer,
  startRedisServer,
  until,
} from '@verify-kit/testkit';
import type { Request } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BindingStore,
  createMemoryBindingStore,
  type SessionResponseBody,
  type StatusChangeEvent,
} from '../src/index.js';
import { createRedisBindingStore, type RedisBindingStore } from '../src/redis.js';
import { startApp, type TestApp } from './support/app.js';
import { decide, submitDocument, waitForStatus } from './support/sandbox.js';

const API_KEY = 'sk_test_accounts_3f9a';
const SECRET = generateWebhookSecret();
const accountOf = (req: Request) => (req.session as unknown as { user?: string }).user;

let sandbox: Sandbox;
afterAll(async () => {
  await sandbox?.close();
  expectKeyNeverLeaked(API_KEY);
});

async function signedIn(app: TestApp, user: string): Promise<Browser> {
  const device = app.browser();
  await device.post(`/login?user=${user}`);
  return device;
}

async function verify(device: Browser, scenario: 'approve' | 'manual_review' = 'approve') {
  const started = await device.post<SessionResponseBody>('/identity/session');
  expect(started.status).toBe(201);
  const { identificationId } = await submitDocument(sandbox, started.json.sessionCode, scenario);
  if (scenario === 'approve') await waitForStatus(sandbox, identificationId, 'APPROVED');
  return identificationId;
}

describe('one instance, the memory store', () => {
  let app: TestApp;
  beforeAll(async () => {
    sandbox = await startSandbox({ apiKey: API_KEY, reviewDelayMs: 0 });
    app = await startApp({
      baseUrl: sandbox.url,
      apiKey: API_KEY,
      accountOf,
      bindingStore: createMemoryBindingStore(),
    });
  });
  afterAll(() => app?.close());

  it('verified on device A: passes the gate on device B and after signing out and in', async () => {
    const phone = await signedIn(app, 'ada');
    await verify(phone);
    expect((await phone.get('/api/data')).status).toBe(200);

    const laptop = await signedIn(app, 'ada');
    expect((await laptop.get('/api/data')).status).toBe(200);
    expect((await laptop.get<{ phase: string }>('/identity/status')).json.phase).toBe('approved');

    await phone.post('/logout');
    expect((await phone.get('/api/data')).status).toBe(403);
    await phone.post('/login?user=ada');
    expect((await phone.get('/api/data')).status).toBe(200);
  });

  it('another account sees nothing: 403 at the gate, 404 on /status and /qr.svg', async () => {
    const other = await signedIn(app, 'mallory');
    expect((await other.get('/api/data')).status).toBe(403);
    expect((await other.get('/identity/status')).status).toBe(404);
    expect((await other.get('/identity/qr.svg')).status).toBe(404);
  });

  it('an anonymous verification is never moved into an account by signing in', async () => {
    const visitor = app.browser();
    await verify(visitor);
    expect((await visitor.get('/api/data')).status).toBe(200);
    await visitor.post('/login?user=grace');
    expect((await visitor.get('/api/data')).status).toBe(403);
    expect((await visitor.get('/identity/status')).status).toBe(404);
  });

  it('an approved verification is not replaced by restart; after forget it is refused and may start again', async () => {
    const device = await signedIn(app, 'linus');
    await verify(device);
    const restarted = await device.post<SessionResponseBody>('/identity/session', { restart: true });
    expect(restarted.json.phase).toBe('approved');
    const second = await signedIn(app, 'linus');
    expect((await second.post('/forget')).status).toBe(200);
    expect((await device.get('/api/data')).status).toBe(403);
    expect((await second.get('/identity/status')).status).toBe(404);
    expect(await app.kit.statusOfAccount('linus')).toBeUndefined();
    const again = await device.post<SessionResponseBody>('/identity/session');
    expect(again.json.phase).toBe('awaiting_user');
  });

  it('statusOfAccount reads an account’s verification without a request', async () => {
    const device = await signedIn(app, 'edsger');
    const identificationId = await verify(device);
    expect(await app.kit.statusOfAccount('edsger')).toMatchObject({
      status: 'APPROVED',
      phase: 'approved',
      approved: true,
      identificationId,
    });
  });

  it('accountOf failing or returning garbage is a 500 ACCOUNT_RESOLUTION_FAILED, never a pass', async () => {
    for (const broken of [
      () => {
        throw new Error('db down');
      },
      () => ({ id: 1 }) as unknown as string,
    ]) {
      const failing = await startApp({ baseUrl: sandbox.url, apiKey: API_KEY, accountOf: broken });
      try {
        const res = await failing.browser().get<{ error: { code: string } }>('/api/data');
        expect([res.status, res.json.error.code]).toEqual([500, 'ACCOUNT_RESOLUTION_FAILED']);
        expect(failing.passed).toBe(0);
      } finally {
        await failing.close();
      }
    }
  });

  it('a store that does not answer: the gate fails closed with 503 BINDING_STORE_UNAVAILABLE', async () => {
    const memory = createMemoryBindingStore();
    let down = false;
    const flaky: BindingStore = {
      ...memory,
      get: (id) => (down ? new Promise(() => {}) : memory.get(id)),
    };
    const app2 = await startApp({ baseUrl: sandbox.url, apiKey: API_KEY, accountOf, bindingStore: flaky });
    try {
      const device = await signedIn(app2, 'ada');
      await verify(device);
      expect((await device.get('/api/data')).status).toBe(200);
      down = true;
      const res = await device.get<{ error: { code: string } }>('/api/data');
      expect([res.status, res.json.error.code]).toEqual([503, 'BINDING_STORE_UNAVAILABLE']);
      expect(app2.passed).toBe(1);
    } finally {
      await app2.close();
    }
  });
});

describe('two instances sharing a Redis binding store', () => {
  let redis: RedisServer;
  let aListening: Listening;
  const instances: { app: TestApp; store: RedisBindingStore; events: StatusChangeEvent[] }[] = [];
  const allEvents = () => instances.flatMap((instance) => instance.events);

  async function startInstance(listening?: Listening) {
    const store = createRedisBindingStore({ url: redis.url, logger: capturingLogger() });
    const events: StatusChangeEvent[] = [];
    const app = await startApp(
      {
        baseUrl: sandbox.url,
        apiKey: API_KEY,
        accountOf,
        bindingStore: store,
        webhookSecret: SECRET,
        onStatusChange: (event) => {
          events.push(event);
        },
      },
      listening === undefined ? {} : { listening },
    );
    instances.push({ app, store, events });
    return app;
  }

  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    redis = await startRedisServer();
    aListening = await listen();
    await sandbox?.close();
    // The sandbox's webhooks go to instance A only.
    sandbox = await startSandbox({
      apiKey: API_KEY,
      reviewDelayMs: 0,
      webhookUrl: `${aListening.url}/identity/webhook`,
      webhookSecret: SECRET,
    });
    a = await startInstance(aListening);
    b = await startInstance();
  });
  afterAll(async () => {
    for (const { app, store } of instances) {
      await app.close();
      await store.close();
    }
    await redis?.stop();
  });

  it('exactly one APPROVED event across two instances both reading the status', async () => {
    const onA = await signedIn(a, 'ada');
    const onB = await signedIn(b, 'ada');
    const identificationId = await verify(onA);
    // Both instances read the approval, more than once, at the same time.
    const reads = await Promise.all([onA, onB, onA, onB].map((device) => device.get('/api/data')));
    expect(reads.map((res) => res.status)).toEqual([200, 200, 200, 200]);
    await until(() => allEvents().some((event) => event.status === 'APPROVED'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const approved = allEvents().filter(
      (e) => e.identificationId === identificationId && e.status === 'APPROVED',
    );
    expect(approved).toHaveLength(1);
    expect(approved[0]).toMatchObject({ accountId: 'ada', phase: 'approved' });
    expect(approved[0]!.previousStatus).toMatch(/^IN_/);
  });

  it('tells a decision with no browser open: the webhook triggers one read', async () => {
    const device = await signedIn(b, 'grace');
    const identificationId = await verify(device, 'manual_review');
    await waitForStatus(sandbox, identificationId, 'IN_MANUAL_REVIEW');
    await until(() => allEvents().some((e) => e.identificationId === identificationId));
    // Nobody polls or opens a gated page: only the webhook to A can lead to the event.
    await decide(sandbox, identificationId, 'REJECTED');
    await until(() =>
      allEvents().some((e) => e.identificationId === identificationId && e.status === 'REJECTED'),
    );
    const rejected = allEvents().filter(
      (e) => e.identificationId === identificationId && e.status === 'REJECTED',
    );
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toMatchObject({
      accountId: 'grace',
      previousStatus: 'IN_MANUAL_REVIEW',
      phase: 'rejected',
    });
  });

  it('after forget on one instance, every instance refuses', async () => {
    const onA = await signedIn(a, 'linus');
    const onB = await signedIn(b, 'linus');
    await verify(onA);
    expect((await onB.get('/api/data')).status).toBe(200);
    await onA.post('/forget');
    expect((await onA.get('/api/data')).status).toBe(403);
    expect((await onB.get('/api/data')).status).toBe(403);
  });

  it('Redis down: the gate fails closed (503), never a pass; health says so', async () => {
    const device = await signedIn(b, 'edsger');
    await verify(device);
    expect((await device.get('/api/data')).status).toBe(200);
    expect(await b.kit.health()).toMatchObject({ ok: true, store: 'ok' });
    await redis.stop();
    const res = await device.get<{ error: { code: string } }>('/api/data');
    expect([res.status, res.json.error.code]).toEqual([503, 'BINDING_STORE_UNAVAILABLE']);
    expect(await b.kit.health()).toMatchObject({ ok: false, store: 'down' });
  });
});

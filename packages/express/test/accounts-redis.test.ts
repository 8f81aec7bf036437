// A verification belongs to the account when several instances share a real redis-server as
// their binding store; the sandbox's webhooks reach instance A only.
import { generateWebhookSecret } from '@verify-kit/client';
import type { Sandbox } from '@verify-kit/sandbox';
import {
  capturingLogger,
  expectKeyNeverLeaked,
  type Listening,
  type RedisServer,
  startRedisServer,
  until,
} from '@verify-kit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatusChangeEvent } from '../src/index.js';
import { createRedisBindingStore, type RedisBindingStore } from '../src/redis.js';
import { signedInUser, startApp, type TestApp } from './support/app.js';
import { startWebhookingSandbox, verifyIn } from './support/fixtures.js';
import { decide, waitForStatus } from './support/sandbox.js';

const API_KEY = 'sk_test_accounts_redis_6d0e';
const SECRET = generateWebhookSecret();

let redis: RedisServer;
let sandbox: Sandbox;
let a: TestApp;
let b: TestApp;
const instances: { app: TestApp; store: RedisBindingStore; events: StatusChangeEvent[] }[] = [];
const allEvents = () => instances.flatMap((instance) => instance.events);

async function startInstance(listening?: Listening) {
  const store = createRedisBindingStore({ url: redis.url, logger: capturingLogger() });
  const events: StatusChangeEvent[] = [];
  const app = await startApp(
    {
      baseUrl: sandbox.url,
      apiKey: API_KEY,
      accountOf: signedInUser,
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

beforeAll(async () => {
  redis = await startRedisServer();
  const webhooking = await startWebhookingSandbox(API_KEY, SECRET);
  sandbox = webhooking.sandbox;
  a = await startInstance(webhooking.listening);
  b = await startInstance();
});

afterAll(async () => {
  for (const { app, store } of instances) {
    await app.close();
    await store.close();
  }
  await sandbox?.close();
  await redis?.stop();
  expectKeyNeverLeaked(API_KEY);
});

describe('status change events of two instances sharing a Redis binding store', () => {
  it('exactly one APPROVED event across two instances both reading the status', async () => {
    const onA = await a.signedIn('ada');
    const onB = await b.signedIn('ada');
    const identificationId = await verifyIn(sandbox, onA);
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
    const device = await b.signedIn('grace');
    const identificationId = await verifyIn(sandbox, device, 'manual_review');
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
});

describe('one binding in Redis for every instance', () => {
  it('after forget on one instance, every instance refuses', async () => {
    const onA = await a.signedIn('linus');
    const onB = await b.signedIn('linus');
    await verifyIn(sandbox, onA);
    expect((await onB.get('/api/data')).status).toBe(200);
    await onA.post('/forget');
    expect((await onA.get('/api/data')).status).toBe(403);
    expect((await onB.get('/api/data')).status).toBe(403);
  });

  it('Redis down: the gate fails closed (503), never a pass; health says so', async () => {
    const device = await b.signedIn('edsger');
    await verifyIn(sandbox, device);
    expect((await device.get('/api/data')).status).toBe(200);
    expect(await b.kit.health()).toMatchObject({ ok: true, store: 'ok' });
    await redis.stop();
    const res = await device.get<{ error: { code: string } }>('/api/data');
    expect([res.status, res.json.error.code]).toEqual([503, 'BINDING_STORE_UNAVAILABLE']);
    expect(await b.kit.health()).toMatchObject({ ok: false, store: 'down' });
  });
});

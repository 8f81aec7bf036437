// Anonymous visitors behind a load balancer: two instances, each keeping its own stored decisions
// (the memory store), one status bus, one session store. A revocation must reach an instance whose
// visit's first read is still on the wire. The fake upstream reads the status when the request
// arrives and holds its answer, so the held answer is the status before the revocation.
import { generateWebhookSecret } from '@verify-kit/client';
import {
  Browser,
  deliverWebhook,
  expectKeyNeverLeaked,
  type FakeUpstream,
  startFakeUpstream,
  until,
} from '@verify-kit/testkit';
import session from 'express-session';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMemoryStatusBus } from '../src/index.js';
import { startApp, type TestApp } from './support/app.js';
import { startVerificationOn } from './support/fixtures.js';

const API_KEY = 'sk_test_visit_bus_3b9a';
const secret = generateWebhookSecret();
let upstream: FakeUpstream;
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  const options = {
    baseUrl: upstream.url,
    apiKey: API_KEY,
    webhookSecret: secret,
    statusBus: createMemoryStatusBus(),
  };
  const sessionStore = new session.MemoryStore();
  a = await startApp(options, { sessionStore });
  b = await startApp(options, { sessionStore });
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await upstream?.close();
  expectKeyNeverLeaked(API_KEY);
});

it('a revocation heard while the first read of a visit is under way on another instance outlives that read', async () => {
  const onA = a.browser();
  const id = await startVerificationOn(upstream, onA);
  upstream.statuses.set(id, 'APPROVED');
  const onB = new Browser(b.url, onA.cookies); // the same person, balanced to instance B
  let release!: () => void;
  upstream.hold = new Promise<void>((resolve) => {
    release = resolve;
  });
  const readsBefore = upstream.reads;
  const first = onB.get('/api/data'); // a new visit on B: it reads APPROVED, the answer held
  await until(() => upstream.reads > readsBefore, 'B read the status');
  // The service rejects; its signed webhook reaches A, and B hears of it on the bus.
  upstream.statuses.set(id, 'REJECTED');
  const delivered = await deliverWebhook(onA, {
    secret,
    identificationId: id,
    type: 'identification.rejected',
  });
  expect(delivered.status).toBe(204);
  upstream.hold = undefined;
  release();
  // That read was APPROVED when the service answered it, but the verified refusal heard meanwhile
  // holds against it (refusalSettleMs: the service's reads may lag its webhooks): refused, and no
  // visit begins; the next gated requests on B and on A are refused too.
  expect((await first).status).toBe(403);
  expect((await onB.get('/api/data')).status).toBe(403);
  expect((await onA.get('/api/data')).status).toBe(403);
});

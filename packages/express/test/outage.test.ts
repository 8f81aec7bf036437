// The service stops: the verified people inside their visits keep reaching the gated page on every
// instance, a revoked one is refused on every instance, a new visit fails closed, and once the stored
// decisions are older than staleIfErrorMs everyone fails closed. Two kit instances on one real
// redis-server (Redis binding store and status bus), the real sandbox sending signed webhooks to A.
import { generateWebhookSecret } from '@verify-kit/client';
import type { Sandbox } from '@verify-kit/sandbox';
import { createSandboxControl } from '@verify-kit/sandbox/control';
import {
  type Browser,
  capturingLogger,
  expectKeyNeverLeaked,
  type Listening,
  type RedisServer,
  startRedisServer,
  until,
} from '@verify-kit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisBindingStore, createRedisStatusBus } from '../src/redis.js';
import { signedInUser, startApp, type TestApp } from './support/app.js';
import { startWebhookingSandbox, verifyIn } from './support/fixtures.js';

const API_KEY = 'sk_test_outage_0b7d';
const SECRET = generateWebhookSecret();
const STALE_IF_ERROR_MS = 10 * 60_000;

let redis: RedisServer;
let sandbox: Sandbox;
// Both instances' clock: the test moves it past staleIfErrorMs at the end.
const clock = { advance: 0 };
const closers: (() => Promise<void>)[] = [];

async function startInstance(listening?: Listening): Promise<TestApp> {
  const store = createRedisBindingStore({ url: redis.url, logger: capturingLogger() });
  const bus = createRedisStatusBus({ url: redis.url, logger: capturingLogger() });
  await bus.ready();
  const app = await startApp(
    {
      baseUrl: sandbox.url,
      apiKey: API_KEY,
      accountOf: signedInUser,
      bindingStore: store,
      statusBus: bus,
      replayStore: bus.replayStore,
      webhookSecret: SECRET,
      sessionLimit: false,
      maxAgeMs: 60_000,
      staleIfErrorMs: STALE_IF_ERROR_MS,
      now: () => Date.now() + clock.advance,
    },
    listening === undefined ? {} : { listening },
  );
  closers.push(async () => {
    await app.close();
    await bus.close();
    await store.close();
  });
  return app;
}

let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  redis = await startRedisServer();
  const webhooking = await startWebhookingSandbox(API_KEY, SECRET);
  sandbox = webhooking.sandbox;
  a = await startInstance(webhooking.listening);
  b = await startInstance();
});
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await sandbox?.close();
  await redis?.stop();
  expectKeyNeverLeaked(API_KEY);
});

interface Person {
  user: string;
  identificationId: string;
  /** The person's browser on instance A and on instance B (each its own sign-in session). */
  onA: Browser;
  onB: Browser;
}

async function approvedPerson(user: string): Promise<Person> {
  const onA = await a.signedIn(user);
  const identificationId = await verifyIn(sandbox, onA);
  const onB = await b.signedIn(user);
  return { user, identificationId, onA, onB };
}

/** Every person's gated request on both instances: the statuses, A's then B's. */
async function gated(people: Person[]): Promise<number[]> {
  return Promise.all(
    people.flatMap(({ onA, onB }) => [onA, onB].map(async (d) => (await d.get('/api/data')).status)),
  );
}

describe('the service down', () => {
  it('the verified keep going on both instances, the revoked are refused on both, a new visit fails closed', async () => {
    const people = await Promise.all(Array.from({ length: 20 }, (_, i) => approvedPerson(`person-${i}`)));
    // Each opens the gated page on both instances: a visit starts with one read on each.
    expect(await gated(people)).toEqual(Array(40).fill(200));
    const revoked = people.slice(0, 5);
    const kept = people.slice(5);
    const control = createSandboxControl(sandbox);
    for (const { identificationId } of revoked) await control.setStatus(identificationId, 'REJECTED');
    // The sandbox's signed webhooks reached instance A (B hears of them through Redis only).
    await until(async () => {
      const deliveries = await Promise.all(
        revoked.map(({ identificationId }) => control.deliveries({ identificationId })),
      );
      return deliveries.every((list) => list.some((d) => d.eventType === 'identification.rejected' && d.ok));
    }, 'the five revocations delivered');
    await sandbox.close();

    expect(await gated(kept)).toEqual(Array(30).fill(200));
    expect(await gated(revoked)).toEqual(Array(10).fill(403));
    const newVisit = await b.signedIn(kept[0]?.user ?? '');
    const refused = await newVisit.get<{ error: { code: string } }>('/api/data');
    expect(refused.status).toBe(503);
    expect(refused.json.error.code).toMatch(/^UPSTREAM_/);

    // Past staleIfErrorMs since their last successful read: every gated request fails closed.
    clock.advance += STALE_IF_ERROR_MS + 1;
    expect(await gated(people)).toEqual(Array(40).fill(503));
  });
});

// Inside an account's visit on a shared (Redis) store, the gate grants from the stored decision of
// the identification the visit names, without the account's binding (decisions.ts, grantStored).
// These tests hold the reason that is safe: whatever unbinds that identification, on any device or
// instance, retires its decision, and no read still under way puts it back. Real sandbox, real HTTP,
// two kit instances on one real redis-server.
import { createSandboxControl } from '@verify-kit/sandbox/control';
import { type Browser, type FaultProxy, startFaultProxy, until } from '@verify-kit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { useRedisAndSandbox, verifyIn } from './support/fixtures.js';
import { type DecisionPut, type RedisKit, recordDecisionPuts, startRedisKit } from './support/redis.js';

const API_KEY = 'sk_test_visit_redis_7d1e';
const MINUTE = 60_000;

const env = useRedisAndSandbox(API_KEY);
const clock = { advance: 0 };
let proxy: FaultProxy;
let a: TestApp;
let b: TestApp;
const instances: RedisKit[] = [];
let putsOnB: DecisionPut[];

beforeAll(async () => {
  // Reads pass through a proxy that can hold them: a read under way while somebody forgets.
  proxy = await startFaultProxy({
    target: env.sandbox.url,
    delayMs: [800, 800],
    shouldFault: (method, path) => method === 'GET' && path.includes('/identifications/'),
  });
  for (let i = 0; i < 2; i++) {
    const kit = await startRedisKit(env.redis.url, {
      baseUrl: proxy.url,
      apiKey: API_KEY,
      sessionLimit: false,
      now: () => Date.now() + clock.advance,
    });
    instances.push(kit);
  }
  [a, b] = instances.map((kit) => kit.app) as [TestApp, TestApp];
  putsOnB = recordDecisionPuts(instances[1]!.store);
});
afterAll(async () => {
  for (const kit of instances.reverse()) await kit.close();
  await proxy?.close();
});

async function statuses(browser: Browser, path: string, times: number): Promise<number[]> {
  const answers: number[] = [];
  for (let i = 0; i < times; i++) answers.push((await browser.get(path)).status);
  return answers;
}

/** `user` verified on A (this device), and signed in on B too, inside a visit there. */
async function twoDevices(user: string): Promise<{ here: Browser; there: Browser; id: string }> {
  const here = await a.signedIn(user);
  const id = await verifyIn(env.sandbox, here);
  const there = await b.signedIn(user);
  expect(await statuses(there, '/api/data', 3)).toEqual([200, 200, 200]);
  return { here, there, id };
}

describe('a visit on a shared store, the account unbound elsewhere', () => {
  it('forget on another device and instance refuses the next gated request at once', async () => {
    const { here, there } = await twoDevices('ada');
    expect((await here.post('/forget')).status).toBe(200);
    const refused = await there.get<{ status: string | null }>('/api/data');
    expect([refused.status, refused.json.status]).toEqual([403, null]);
  });

  it('a re-read under way when the account forgets does not bring the old decision back', async () => {
    const { here, there } = await twoDevices('grace');
    // The stored decision is now older than maxAgeMs: the next grant re-reads it in the background,
    // and that read is held 800 ms by the proxy.
    clock.advance += 6 * MINUTE;
    const putsBefore = putsOnB.length;
    proxy.setRates({ delay: 1 });
    expect((await there.get('/api/data')).status).toBe(200);
    expect((await here.post('/forget')).status).toBe(200);
    // The held read answers APPROVED after the forget, and B's store has answered its record of it.
    await until(
      () => putsOnB.slice(putsBefore).some(({ decision }) => decision.source === 'read'),
      'B recorded what the held read saw',
    );
    proxy.setRates({});
    expect(await statuses(there, '/api/data', 2)).toEqual([403, 403]);
    expect(await statuses(here, '/api/data', 1)).toEqual([403]);
  });
});

describe('reads on several instances, no webhooks', () => {
  it('a refusal read is stored even when this instance stored the same refusal a moment ago', async () => {
    const { here, there, id } = await twoDevices('edsger');
    const control = createSandboxControl(env.sandbox);
    const readOn = async (browser: Browser, status: 'APPROVED' | 'REJECTED') => {
      await control.setStatus(id, status);
      // The widget's status route reads the service; 250 ms apart, so no read is reused.
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect((await browser.get<{ status: string }>('/identity/status')).json.status).toBe(status);
    };
    await readOn(there, 'REJECTED'); // B stores REJECTED
    await readOn(here, 'APPROVED'); // A stores APPROVED, later
    await readOn(there, 'REJECTED'); // B must store it again: the newest read says REJECTED
    expect(await statuses(there, '/api/data', 1)).toEqual([403]);
    expect(await statuses(here, '/api/data', 1)).toEqual([403]);
  });
});

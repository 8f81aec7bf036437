// The gate re-reads the status once per visit (the spec: "re-read the status each time the user opens
// the application") and answers the rest of the visit from the stored decision (decisions.ts). Real
// sandbox, real HTTP; upstream reads counted by the test kit's proxy in front of the sandbox.
import { generateWebhookSecret } from '@verify-kit/client';
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { createSandboxControl } from '@verify-kit/sandbox/control';
import {
  type Browser,
  expectKeyNeverLeaked,
  type FaultProxy,
  freePort,
  startFaultProxy,
  until,
} from '@verify-kit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../src/index.js';
import { type AppOptions, signedInUser, startApp, type TestApp } from './support/app.js';
import { verifyIn } from './support/fixtures.js';

const API_KEY = 'sk_test_visits_51c2';
const MINUTE = 60_000;

let sandbox: Sandbox;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  // Webhooks go to a port nobody listens on: every one of them is lost.
  sandbox = await startSandbox({
    apiKey: API_KEY,
    reviewDelayMs: 0,
    webhookUrl: `http://127.0.0.1:${await freePort()}/identity/webhook`,
    webhookSecret: generateWebhookSecret(),
  });
});
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await sandbox?.close();
  expectKeyNeverLeaked(API_KEY);
});

interface Counted {
  app: TestApp;
  proxy: FaultProxy;
  audit: AuditEvent[];
  /** Upstream reads of identifications since the last call. */
  reads(): number;
  /** The kit's clock: Date.now() moved forward by `advance`. */
  clock: { advance: number };
}

/** An app whose upstream reads pass through a counting proxy, on a clock the test can move. */
async function countedApp(options: AppOptions = {}): Promise<Counted> {
  const proxy = await startFaultProxy({ target: sandbox.url });
  const clock = { advance: 0 };
  const audit: AuditEvent[] = [];
  const app = await startApp(
    {
      baseUrl: proxy.url,
      apiKey: API_KEY,
      accountOf: signedInUser,
      sessionLimit: false,
      now: () => Date.now() + clock.advance,
      onAudit: (event) => audit.push(event),
      ...options,
    },
    {
      routes: (express, kit) =>
        express.get('/strict', kit.requireApproved({ freshness: 'every-request' }), (_req, res) =>
          res.json({ strict: true }),
        ),
    },
  );
  closers.push(async () => {
    await app.close();
    await proxy.close();
  });
  let seen = 0;
  const reads = () => {
    const total = proxy.stats().byRoute.read;
    const since = total - seen;
    seen = total;
    return since;
  };
  return { app, proxy, audit, reads, clock };
}

/** A person signed in on `app` whose verification the sandbox approved. */
async function approvedPerson(app: TestApp, user: string): Promise<Browser> {
  const browser = await app.signedIn(user);
  await verifyIn(sandbox, browser);
  return browser;
}

async function statuses(browser: Browser, path: string, times: number): Promise<number[]> {
  const answers: number[] = [];
  for (let i = 0; i < times; i++) answers.push((await browser.get(path)).status);
  return answers;
}

describe('one upstream read per visit', () => {
  it('50 approved people × 40 gated requests each inside one visit: at most 50 upstream reads', async () => {
    const { app, reads, audit } = await countedApp();
    const people = await Promise.all(
      Array.from({ length: 50 }, (_, i) => approvedPerson(app, `person-${i}`)),
    );
    reads();
    const answers = await Promise.all(people.map((browser) => statuses(browser, '/api/data', 40)));
    expect(answers.flat().filter((status) => status !== 200)).toEqual([]);
    expect(reads()).toBeLessThanOrEqual(50);
    const granted = audit.filter((event) => event.type === 'gate.granted');
    expect(granted).toHaveLength(2000);
    expect(granted.filter((event) => event.source === 'stored').length).toBeGreaterThanOrEqual(1950);
  }, 60_000); // 2,050 requests over real HTTP: on a loaded 2-core machine past the default 20 s
});

describe('where a visit begins and ends', () => {
  it('a visit idle longer than visitIdleMs reads again; a gated request inside it does not', async () => {
    const { app, reads, clock } = await countedApp({ visitIdleMs: 30 * MINUTE });
    const ada = await approvedPerson(app, 'ada');
    reads();
    expect(await statuses(ada, '/api/data', 5)).toEqual([200, 200, 200, 200, 200]);
    expect(reads()).toBe(1);
    clock.advance += 2 * MINUTE;
    expect(await statuses(ada, '/api/data', 2)).toEqual([200, 200]);
    expect(reads()).toBe(0);
    clock.advance += 30 * MINUTE + 1;
    expect(await statuses(ada, '/api/data', 3)).toEqual([200, 200, 200]);
    expect(reads()).toBe(1);
  });

  it('signing in again (a new session) starts a visit: the first gated request reads', async () => {
    const { app, reads } = await countedApp();
    const laptop = await approvedPerson(app, 'grace');
    expect(await statuses(laptop, '/api/data', 3)).toEqual([200, 200, 200]);
    reads();
    // The same account on another browser, and after signing out and in on the first one.
    const phone = await app.signedIn('grace');
    expect(await statuses(phone, '/api/data', 3)).toEqual([200, 200, 200]);
    expect(reads()).toBe(1);
    await laptop.post('/logout');
    await laptop.post('/login?user=grace');
    expect(await statuses(laptop, '/api/data', 3)).toEqual([200, 200, 200]);
    expect(reads()).toBe(1);
  });

  it('an anonymous visitor: one read per visit, across the session id moving at the approval', async () => {
    const { app, reads } = await countedApp({ accountOf: undefined });
    const visitor = app.browser();
    await verifyIn(sandbox, visitor);
    const before = visitor.cookieHeader;
    reads();
    expect(await statuses(visitor, '/api/data', 5)).toEqual([200, 200, 200, 200, 200]);
    expect(reads()).toBe(1);
    // The first approved gated request moved the session to a new id (fixation); the visit moved too.
    expect(visitor.cookieHeader).not.toBe(before);
  });

  it('forget ends the visit: refused at once, and a new verification reads again', async () => {
    const { app, reads } = await countedApp();
    const linus = await approvedPerson(app, 'linus');
    expect(await statuses(linus, '/api/data', 2)).toEqual([200, 200]);
    expect((await linus.post('/forget')).status).toBe(200);
    const refused = await linus.get<{ status: string | null }>('/api/data');
    expect([refused.status, refused.json.status]).toEqual([403, null]);
    await verifyIn(sandbox, linus);
    reads();
    expect(await statuses(linus, '/api/data', 3)).toEqual([200, 200, 200]);
    expect(reads()).toBe(1);
  });

  it("freshness 'every-request' (kit-wide, or one gate's) reads on every gated request", async () => {
    const strict = await countedApp({ freshness: 'every-request', maxReadsPerSecond: 100 });
    const ada = await approvedPerson(strict.app, 'ada');
    strict.reads();
    expect(await statuses(ada, '/api/data', 4)).toEqual([200, 200, 200, 200]);
    expect(strict.reads()).toBe(4);

    const mixed = await countedApp({ maxReadsPerSecond: 100 });
    const bob = await approvedPerson(mixed.app, 'bob');
    expect(await statuses(bob, '/api/data', 2)).toEqual([200, 200]);
    mixed.reads();
    // The app's /strict route: requireApproved({ freshness: 'every-request' }).
    expect(await statuses(bob, '/strict', 3)).toEqual([200, 200, 200]);
    expect(mixed.reads()).toBe(3);
    expect(await statuses(bob, '/api/data', 3)).toEqual([200, 200, 200]);
    expect(mixed.reads()).toBe(0);
  });
});

describe('revocation without webhooks (every webhook lost)', () => {
  it('a revocation is seen once the stored decision is older than maxAgeMs, and not before', async () => {
    const { app, reads, clock } = await countedApp({ maxAgeMs: MINUTE, staleIfErrorMs: 10 * MINUTE });
    const ada = await approvedPerson(app, 'ada');
    expect(await statuses(ada, '/api/data', 2)).toEqual([200, 200]);
    const { identificationId } = (await app.kit.statusOfAccount('ada')) ?? {};
    await createSandboxControl(sandbox).setStatus(String(identificationId), 'REJECTED');
    reads();
    // Inside maxAgeMs the stored decision answers: no read, the revocation not seen yet.
    clock.advance += MINUTE - 10_000;
    expect(await statuses(ada, '/api/data', 3)).toEqual([200, 200, 200]);
    expect(reads()).toBe(0);
    // Older than maxAgeMs: served once more while one background read runs, then refused.
    clock.advance += 10_001;
    await until(async () => (await ada.get('/api/data')).status === 403, 'the revocation seen');
    expect(reads()).toBeGreaterThanOrEqual(1);
    expect(await statuses(ada, '/api/data', 3)).toEqual([403, 403, 403]);
  });
});

// The third red team's medium finding: one client polling at will made the service look down for
// everybody. Over real HTTP against the real sandbox limited to 40 calls a second on the key, two
// addresses hold 30 anonymous verifications each and poll them every 50 ms, while verified people
// open the gated page in new visits: every one of them gets in, and the service never answers 429.
import { startSandbox } from '@verify-kit/sandbox';
import { type Browser, logLines, startFaultProxy } from '@verify-kit/testkit';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { signedInUser, startApp } from './support/app.js';
import { useSandboxApp, verifyIn } from './support/fixtures.js';

const API_KEY = 'sk_test_read_budget_6c1f';
const context = useSandboxApp(
  API_KEY,
  { accountOf: signedInUser },
  { rateLimit: { requests: 40, windowMs: 1000 } },
);

/** A browser whose connections come from `address` (any of 127.0.0.0/8 reaches the app). */
const browserFrom = (address: string) => context.app.browser(new Agent({ localAddress: address }));

/** `count` anonymous verifications started from `address`, each in its own cookie jar. */
async function verificationsFrom(address: string, count: number): Promise<Browser[]> {
  const browsers: Browser[] = [];
  for (let i = 0; i < count; i++) {
    const browser = browserFrom(address);
    expect((await browser.post('/identity/session')).status).toBe(201);
    browsers.push(browser);
    // Creations stay under the service's own limit: the flood is the reads.
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
  return browsers;
}

/** Every browser polls GET /status every `everyMs` until `until` resolves; the answers' statuses. */
async function flood(browsers: Browser[], everyMs: number, until: Promise<unknown>): Promise<number[]> {
  const statuses: number[] = [];
  let done = false;
  until.finally(() => {
    done = true;
  });
  await Promise.all(
    browsers.map(async (browser) => {
      for (let i = 0; i < 400 && !done; i++) {
        statuses.push((await browser.get('/identity/status')).status);
        await new Promise((resolve) => setTimeout(resolve, everyMs));
      }
    }),
  );
  return statuses;
}

describe('one client cannot make the service look down for everybody', () => {
  it('verified people start their visits during a flood of status polls from two addresses: 0 refused', async () => {
    const { app, sandbox } = context;
    const people = ['ada', 'grace', 'edsger', 'barbara', 'donald', 'frances'];
    for (const user of people) {
      const device = await app.signedIn(user);
      await verifyIn(sandbox, device);
      // The widget saw the approval: the kit read it once.
      expect((await device.get<{ phase: string }>('/identity/status')).json.phase).toBe('approved');
    }
    const attackers = [
      ...(await verificationsFrom('127.0.0.2', 30)),
      ...(await verificationsFrom('127.0.0.3', 30)),
    ];

    const visits = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 1000)); // the flood is under way
      const answers: number[] = [];
      for (const user of people) {
        // A new sign-in is a new visit: its first gated request reads the status upstream.
        const device = await app.signedIn(user);
        answers.push((await device.get('/api/data')).status);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      return answers;
    })();
    const polls = await flood(attackers, 50, visits);

    expect(await visits).toEqual(people.map(() => 200));
    // The flood was answered (from the last read, or 429 with Retry-After), never with an error.
    expect(polls.length).toBeGreaterThan(1000);
    expect(polls.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    expect(logLines.filter((line) => line.includes('answered 429'))).toEqual([]);
  });
});

describe('the service’s own 429 is honoured', () => {
  it('no read reaches the service during its Retry-After: polls are answered from the last read', async () => {
    const sandbox = await startSandbox({ apiKey: API_KEY, rateLimit: { requests: 3, windowMs: 3000 } });
    const proxy = await startFaultProxy({ target: sandbox.url });
    const app = await startApp({
      baseUrl: proxy.url,
      apiKey: API_KEY,
      retries: 0,
      readLimit: { perClient: 1000, perIp: 1000 },
    });
    try {
      const person = app.browser();
      expect((await person.post('/identity/session')).status).toBe(201); // the service's first call
      const answers: number[] = [];
      for (let i = 0; i < 20; i++) {
        answers.push((await person.get('/identity/status')).status);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // The creation, two reads answered, one 429, then nothing more until the Retry-After has passed.
      expect(proxy.stats().byUpstreamStatus).toEqual({ 201: 1, 200: 2, 429: 1 });
      // The poll whose read was answered 429 fails (503); the rest are answered from the last read.
      expect(answers.filter((status) => status !== 200)).toEqual([503]);
      expect(logLines.filter((line) => line.includes('answered 429'))).toHaveLength(1);
    } finally {
      await app.close();
      await proxy.close();
      await sandbox.close();
    }
  });
});

describe('the service down', () => {
  it('a poll over its budget is told the service is down, never shown the approval it read before', async () => {
    const sandbox = await startSandbox({ apiKey: API_KEY, reviewDelayMs: 0 });
    const app = await startApp({
      baseUrl: sandbox.url,
      apiKey: API_KEY,
      retries: 0,
      accountOf: signedInUser,
      readLimit: { perClient: 2, perIp: 1000 },
    });
    try {
      const device = await app.signedIn('ada');
      await verifyIn(sandbox, device);
      expect((await device.get<{ phase: string }>('/identity/status')).json.phase).toBe('approved');
      await sandbox.close();
      // Polls as a widget retries them: the first reach for the service, the rest are over budget.
      const answers: number[] = [];
      for (let i = 0; i < 6; i++) answers.push((await device.get('/identity/status')).status);
      expect(answers).toEqual([503, 503, 503, 503, 503, 503]);
    } finally {
      await app.close();
      await sandbox.close();
    }
  });
});

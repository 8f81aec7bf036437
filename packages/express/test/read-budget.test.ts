// The third red team's medium finding: one client polling at will made the service look down for
// everybody. Over real HTTP against the real sandbox limited to 40 calls a second on the key, two
// addresses hold 30 anonymous verifications each and poll them every 50 ms, while verified people
// open the gated page in new visits: every one of them gets in, and the service never answers 429.
import { type Browser, logLines } from '@verify-kit/testkit';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { signedInUser } from './support/app.js';
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

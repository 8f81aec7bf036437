// The third red team's finding 1 (issue 33) as a suite every shell runs: red-team/app.ts says how.
import type { Sandbox } from '@verify-kit/sandbox';
import { afterAll, describe, expect, it } from 'vitest';
import { expectKeyNeverLeaked, logLines } from '../leaks.js';
import { until } from '../until.js';
import { verifyIn } from '../verifications.js';
import { onSandbox, type StartApp, sleep, startFlood, verificationsFrom } from './app.js';
/**
 * Finding 1: one client polling at will made the service look down for everybody. Against the real
 * sandbox limited to 40 calls a second on the key, two addresses (127.0.0.2, 127.0.0.3) hold 30
 * anonymous verifications each and poll them every 50 ms, while verified people open the gated page
 * in new visits from 127.0.0.1: every one of them gets in, and the service never answers 429. One of
 * them was approved at the service and never read by the kit (nothing stored vouches for her): she
 * gets in only if her reads are counted at her own address, not at the flood's.
 */
export function describeReadFlood(apiKey: string, start: StartApp): void {
  describe('one client cannot make the service look down for everybody', () => {
    afterAll(() => expectKeyNeverLeaked(apiKey));

    const title =
      'verified people start their visits during a flood of status polls from two addresses: 0 refused';
    it(title, { timeout: 30_000 }, async () => {
      const rateLimit = { requests: 40, windowMs: 1000 };
      // No creation limit: 60 verifications from two addresses are the flood's set-up; its reads are the test.
      const startOn = (sandbox: Sandbox) => start({ baseUrl: sandbox.url, apiKey, sessionLimit: false });
      await onSandbox(apiKey, { rateLimit }, startOn, async (app, sandbox) => {
        const people = ['ada', 'grace', 'edsger', 'barbara', 'donald', 'frances'];
        for (const user of people) {
          const device = await app.signedIn(user);
          await verifyIn(sandbox, device);
          // The widget saw the approval: the kit read it once (a stored APPROVED).
          expect((await device.get<{ phase: string }>('/identity/status')).json.phase).toBe('approved');
        }
        const unread = 'katherine';
        await verifyIn(sandbox, await app.signedIn(unread));
        const attackers = [
          ...(await verificationsFrom(app, '127.0.0.2', 30)),
          ...(await verificationsFrom(app, '127.0.0.3', 30)),
        ];
        const logged = logLines.length;

        const flood = startFlood(attackers, 50);
        let perSecond: number;
        try {
          await until(() => flood.statuses.length >= 300, 'the flood under way');
          const [before, since] = [flood.statuses.length, Date.now()];
          // Visits for longer than a window of the read limit (5 s): some land in the seconds when
          // the flood's addresses, their windows new, spend the browsers' share of the ceiling.
          const visitors = [unread, ...people];
          for (let i = 0; i < visitors.length || Date.now() - since < 6000; i++) {
            // A new sign-in is a new visit: its first gated request reads the status upstream.
            const user = visitors[i % visitors.length] as string;
            const device = await app.signedIn(user);
            const { status } = await device.get('/api/data');
            expect({ user, status }).toEqual({ user, status: 200 });
            await sleep(250);
          }
          perSecond = ((flood.statuses.length - before) * 1000) / (Date.now() - since);
        } finally {
          await flood.stop();
        }
        // The flood went on through the visits, well over the service's 40 calls a second, answered
        // from the last read or 429 with Retry-After, never with an error.
        expect(perSecond).toBeGreaterThan(120);
        expect(flood.statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
        expect(logLines.slice(logged).filter((line) => line.includes('answered 429'))).toEqual([]);
      });
    });
  });
}

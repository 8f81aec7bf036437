import { loadavg } from 'node:os';
import { Agent } from 'undici';
import { withStack } from '../harness/stack.js';
import { approvedUsers, benchBrowser } from '../harness/users.js';
import { sleep } from '../stats.js';
import type { LoadArgs } from './args.js';

/** The third red team's flood (SECURITY.md, issue 33, finding 1): its numbers. */
const FLOODING_ADDRESSES = ['127.0.0.2', '127.0.0.3'];
const VERIFICATIONS_PER_ADDRESS = 60;
const POLL_EVERY_MS = 100;
const VERIFIED_PEOPLE = 8;

/**
 * `pnpm load --flood`: the gate's availability for verified people while one client polls at will.
 * Two addresses poll 60 anonymous verifications each every 100 ms against a sandbox limited to
 * `serviceLimit` calls a second on the key; meanwhile verified people sign in again, each a new
 * visit whose first gated request reads the status. Goal: 0 of them refused, 0 answers 429 from
 * the service. The kit runs with its default read budget (upstreamReadsPerSecond 20).
 */
export async function runFlood(args: LoadArgs) {
  const options = {
    webhooks: true,
    countCalls: true,
    rateLimit: { requests: args.serviceLimit, windowMs: 1000 },
    app: { binding: 'memory' as const, upstreamReadsPerSecond: 20 },
  };
  return withStack(options, async (stack) => {
    const people = await approvedUsers(stack, VERIFIED_PEOPLE, { signIn: true });
    const flooders = [];
    for (const address of FLOODING_ADDRESSES) {
      const dispatcher = new Agent({ localAddress: address });
      for (let i = 0; i < VERIFICATIONS_PER_ADDRESS; i++) {
        const browser = benchBrowser(stack, dispatcher);
        if ((await browser.post('/identity/session')).status === 201) flooders.push(browser);
        await sleep(2000 / args.serviceLimit); // the creations stay well under the service's limit
      }
    }
    stack.proxy?.resetStats();
    const polls = new Map<number, number>();
    const until = Date.now() + args.floodSeconds * 1000;
    const flood = Promise.all(
      flooders.map(async (browser) => {
        while (Date.now() < until) {
          const { status } = await browser.get('/identity/status');
          polls.set(status, (polls.get(status) ?? 0) + 1);
          await sleep(POLL_EVERY_MS);
        }
      }),
    );
    const visits: number[] = [];
    await sleep(1000);
    while (Date.now() < until - 500) {
      for (const { userId } of people) {
        const browser = benchBrowser(stack);
        await browser.post(`/sign-in?user=${encodeURIComponent(userId ?? '')}`);
        visits.push((await browser.get('/visit')).status);
      }
    }
    await flood;
    const upstream = stack.proxy?.stats();
    const reads = upstream?.byRoute.read ?? 0;
    const figures = {
      config: { ...args, loadAverage1m: loadavg()[0] },
      ranAt: new Date().toISOString(),
      verifiedVisits: visits.length,
      verifiedRefused: visits.filter((status) => status !== 200).length,
      refusedGoal: 0,
      polls: Object.fromEntries(polls),
      upstreamReadsPerSecond: Math.round((reads / args.floodSeconds) * 10) / 10,
      upstream429: upstream?.byUpstreamStatus[429] ?? 0,
    };
    console.log(
      `\nflood: ${flooders.length} verifications polled every ${POLL_EVERY_MS} ms from ${FLOODING_ADDRESSES.length} addresses for ${args.floodSeconds} s, service limited to ${args.serviceLimit}/s`,
    );
    console.log(
      `verified people's new visits: ${figures.verifiedVisits}, refused ${figures.verifiedRefused} (goal 0); ` +
        `polls answered ${JSON.stringify(figures.polls)}; upstream reads ${figures.upstreamReadsPerSecond}/s, ` +
        `429 from the service ${figures.upstream429}`,
    );
    return { mode: 'flood', figures, ok: figures.verifiedRefused === 0 && figures.upstream429 === 0 };
  });
}

import { withStack } from '../harness/stack.js';
import { measureVisitVsPlain, VISIT_LOAD, VISIT_USERS } from '../harness/visit-vs-plain.js';
import type { Bench } from './bench.js';

/**
 * @verify-kit/hono on Node (harness/hono-app.ts, @hono/node-server): `kit.requireApproved()` inside a
 * visit against a plain Hono route of the same app, 50 approved visitors, their sealed cookies
 * round-robin (the fetch bench's pair, on Hono).
 */
export const bench: Bench = {
  timeoutMs: 150_000,
  async run({ log }) {
    return withStack({}, async (stack) => {
      const { url } = await stack.app.call('listenHono');
      const visit = await measureVisitVsPlain(url, stack);
      log(`  hono: visit/plain ${visit.ratio}`);
      return {
        figures: { 'hono.gate.visitVsPlainHono': visit.ratio },
        details: {
          load: VISIT_LOAD,
          users: VISIT_USERS,
          ratio: 'median over rounds of (variant req/s / baseline req/s) of the same round',
          perRoundRatios: visit.perRound,
          visitInterval95: visit.interval95,
          requestsPerSec: visit.requestsPerSec,
        },
      };
    });
  },
};

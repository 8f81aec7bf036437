import { withStack } from '../harness/stack.js';
import { measureVisitVsPlain } from '../harness/visit-vs-plain.js';
import type { Bench } from './bench.js';

/**
 * @verify-kit/hono on Node (harness/shell-apps.ts, @hono/node-server): `kit.requireApproved()` inside a
 * visit against a plain Hono route of the same app, 50 approved visitors, their sealed cookies
 * round-robin (the fetch bench's pair, on Hono).
 */
export const bench: Bench = {
  timeoutMs: 150_000,
  async run({ log }) {
    return withStack({}, async (stack) => {
      const { url } = await stack.app.call('listenShell', 'hono');
      const visit = await measureVisitVsPlain(url, stack);
      log(`  hono: visit/plain ${visit.ratio}`);
      return { figures: { 'hono.gate.visitVsPlainHono': visit.ratio }, details: visit.details };
    });
  },
};

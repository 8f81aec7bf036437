import { withStack } from '../harness/stack.js';
import { measureVisitVsPlain } from '../harness/visit-vs-plain.js';
import type { Bench } from './bench.js';

/**
 * @verify-kit/hono on Node (harness/shell-apps.ts, @hono/node-server): `kit.requireApproved()` inside a
 * visit against a plain Hono route of the same app, 50 approved visitors, their sealed cookies
 * round-robin (the fetch bench's pair, on Hono), and in the same rounds the gate's physical limit
 * (`/cookie-read`: the plain route that also reads the Cookie header and finds the visitor's
 * cookie); the app process's CPU time per request of each.
 */
export const bench: Bench = {
  timeoutMs: 180_000,
  async run({ log }) {
    return withStack({}, async (stack) => {
      const { url } = await stack.app.call('listenShell', 'hono');
      const cpuMicros = () => stack.app.call('cpuMicros');
      const visit = await measureVisitVsPlain(url, stack, { cookieRead: true, cpuMicros });
      const { plain, visit: gated, 'cookie-read': cookieRead } = visit.details.requestsPerSec;
      const cpuUs = {
        plain: plain?.cpuUs ?? NaN,
        cookieRead: cookieRead?.cpuUs ?? NaN,
        visit: gated?.cpuUs ?? NaN,
      };
      log(
        `  hono: visit/plain ${visit.ratio}, cookie-read/plain ${visit.ratios.cookieReadVsPlain}; CPU µs a request ${JSON.stringify(cpuUs)}`,
      );
      return {
        figures: {
          'hono.gate.visitVsPlainHono': visit.ratio,
          'hono.gate.cookieReadVsPlainHono': visit.ratios.cookieReadVsPlain!,
          'hono.gate.cpuUsPerRequest': cpuUs,
        },
        details: visit.details,
      };
    });
  },
};

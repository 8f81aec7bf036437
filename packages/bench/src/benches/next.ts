import { buildNextBenchApp, startNextBenchApp } from '../harness/next-app.js';
import { withSandbox } from '../harness/stack.js';
import { measureVisitVsPlain } from '../harness/visit-vs-plain.js';
import type { Bench } from './bench.js';

/**
 * @verify-kit/next's proxy gate on `next start` (harness/next-app.ts): kit.requireApproved() in
 * front of /visit against a pass-through proxy (NextResponse.next()) in front of /plain, the same
 * small route handler behind each, one built app, one process. 50 approved anonymous visitors, each
 * inside its visit, their sealed cookies round-robin: the other shells' visit pair (visit-vs-plain.ts).
 */
export const bench: Bench = {
  timeoutMs: 240_000,
  async run({ log }) {
    const buildSeconds = await buildNextBenchApp();
    log(`  next build: ${buildSeconds.toFixed(1)} s`);
    return withSandbox(async (upstream) => {
      const app = await startNextBenchApp(upstream);
      try {
        const stack = { sandboxUrl: upstream.url, apiKey: upstream.apiKey };
        const visit = await measureVisitVsPlain(app.url, stack);
        const { visit: gated, plain: passThrough } = visit.details.requestsPerSec;
        log(
          `  next: proxy gate / pass-through proxy ${visit.ratio} (${gated?.rps} / ${passThrough?.rps} req/s)`,
        );
        return {
          figures: { 'next.gate.proxyVsPassThrough': visit.ratio },
          details: { buildSeconds: Math.round(buildSeconds * 10) / 10, ...visit.details },
        };
      } finally {
        app.stop();
      }
    });
  },
};

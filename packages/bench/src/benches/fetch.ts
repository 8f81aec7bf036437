import { withStack } from '../harness/stack.js';
import { compareRatios, creationAt, type LoadSettings } from '../harness/throughput.js';
import { measureVisitVsPlain } from '../harness/visit-vs-plain.js';
import type { Bench } from './bench.js';

const CREATE_LOAD: LoadSettings = { connections: 10, durationSec: 1, rounds: 8, warmupSec: 1 };

/**
 * Core's Fetch door on Node, as a Hono or Next.js app runs it (harness/shell-apps.ts): the default
 * gate inside a visit against a plain Fetch route of the same server (50 approved visitors, their
 * sealed cookies round-robin), and session creations against the Express kit's, in one stack.
 */
export const bench: Bench = {
  timeoutMs: 180_000,
  async run({ log }) {
    return withStack({}, async (stack) => {
      const { url } = await stack.app.call('listenShell', 'fetch');
      const visit = await measureVisitVsPlain(url, stack);
      const create = await compareRatios(
        [creationAt('express', stack.appUrl), creationAt('fetch', url)],
        CREATE_LOAD,
        { createVsExpress: ['fetch', 'express'] },
      );
      const createVsExpress = create.ratios.createVsExpress;
      log(`  fetch door: visit/plain ${visit.ratio}, creation fetch/express ${createVsExpress}`);
      return {
        figures: {
          'fetch.gate.visitVsPlainFetch': visit.ratio,
          'fetch.createRatioVsExpress': createVsExpress,
        },
        details: { visit: visit.details, create: create.details },
      };
    });
  },
};

import { withStack } from '../harness/stack.js';
import {
  compareThroughput,
  type LoadSettings,
  perRoundRatios,
  type Target,
  throughputRatio,
} from '../harness/throughput.js';
import { measureVisitVsPlain, VISIT_LOAD, VISIT_USERS } from '../harness/visit-vs-plain.js';
import type { Bench } from './bench.js';

const CREATE_LOAD: LoadSettings = { connections: 10, durationSec: 1, rounds: 8, warmupSec: 1 };

/**
 * Core's Fetch door on Node, as a Hono or Next.js app runs it (harness/fetch-app.ts): the default
 * gate inside a visit against a plain Fetch route of the same server (50 approved visitors, their
 * sealed cookies round-robin), and session creations against the Express kit's, in one stack.
 */
export const bench: Bench = {
  timeoutMs: 180_000,
  async run({ log }) {
    return withStack({}, async (stack) => {
      const { url } = await stack.app.call('listenFetch');
      const visit = await measureVisitVsPlain(url, stack);
      const create = (name: string, base: string): Target => ({
        name,
        url: `${base}/identity/session`,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: '{}',
      });
      const creations = await compareThroughput(
        [create('express', stack.appUrl), create('fetch', url)],
        CREATE_LOAD,
      );
      const visitVsPlain = visit.ratio;
      const createVsExpress = throughputRatio(creations.fetch!, creations.express!);
      log(`  fetch door: visit/plain ${visitVsPlain}, creation fetch/express ${createVsExpress}`);
      return {
        figures: {
          'fetch.gate.visitVsPlainFetch': visitVsPlain,
          'fetch.createRatioVsExpress': createVsExpress,
        },
        details: {
          load: { visit: VISIT_LOAD, create: CREATE_LOAD },
          users: VISIT_USERS,
          ratio: 'median over rounds of (variant req/s / baseline req/s) of the same round',
          perRoundRatios: {
            visitVsPlain: visit.perRound,
            createVsExpress: perRoundRatios(creations.fetch!, creations.express!),
          },
          visitInterval95: visit.interval95,
          requestsPerSec: { visit: visit.requestsPerSec, creations },
        },
      };
    });
  },
};

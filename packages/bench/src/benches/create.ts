import { withStack } from '../harness/stack.js';
import {
  compareThroughput,
  type LoadSettings,
  perRoundRatios,
  throughputRatio,
} from '../harness/throughput.js';
import type { Bench } from './bench.js';

const LOAD: LoadSettings = { connections: 10, durationSec: 1, rounds: 8, warmupSec: 1 };

/**
 * Session creations per second straight to the sandbox, and through the kit (POST /identity/session
 * with no cookie: a new browser session each time, as on a first visit).
 */
export const bench: Bench = {
  timeoutMs: 90_000,
  async run() {
    return withStack({}, async (stack) => {
      const results = await compareThroughput(
        [
          {
            name: 'sandbox direct',
            url: `${stack.sandboxUrl}/api/v1/verification-sessions`,
            method: 'POST',
            headers: { 'x-api-key': stack.apiKey, 'content-type': 'application/json' },
            body: JSON.stringify({ workflowId: 'default', locale: 'en', sendOTP: false }),
          },
          {
            name: 'through the kit',
            url: `${stack.appUrl}/identity/session`,
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json' },
            body: '{}',
          },
        ],
        LOAD,
      );
      const direct = results['sandbox direct']!;
      const kit = results['through the kit']!;
      return {
        figures: {
          'sandbox.createPerSec': direct.rps,
          'kit.createRatioVsDirect': throughputRatio(kit, direct),
        },
        details: {
          load: LOAD,
          ratio: 'median over rounds of (kit req/s / direct req/s) of the same round',
          perRoundRatios: perRoundRatios(kit, direct),
          requestsPerSec: results,
        },
      };
    });
  },
};

import { withStack } from '../harness/stack.js';
import { compareRatios, creationAt, type LoadSettings } from '../harness/throughput.js';
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
      const { ratios, details } = await compareRatios(
        [
          {
            name: 'sandbox direct',
            url: `${stack.sandboxUrl}/api/v1/verification-sessions`,
            method: 'POST',
            headers: { 'x-api-key': stack.apiKey, 'content-type': 'application/json' },
            body: JSON.stringify({ workflowId: 'default', locale: 'en', sendOTP: false }),
          },
          creationAt('through the kit', stack.appUrl),
        ],
        LOAD,
        { kitVsDirect: ['through the kit', 'sandbox direct'] },
      );
      return {
        figures: {
          'sandbox.createPerSec': details.requestsPerSec['sandbox direct']!.rps,
          'kit.createRatioVsDirect': ratios.kitVsDirect,
        },
        details,
      };
    });
  },
};

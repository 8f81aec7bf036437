import { startStack } from '../servers/stack.js';
import { approvedUser } from '../support/flow.js';
import { compareThroughput, type LoadSettings, throughputRatio } from '../support/load.js';
import { round } from '../support/stats.js';
import type { Bench } from './bench.js';

const LOAD: LoadSettings = { connections: 10, durationSec: 0.5, rounds: 16, warmupSec: 1 };

export const gateBench: Bench = {
  timeoutMs: 120_000,
  async run() {
    const stack = await startStack({ reviewDelayMs: 0 });
    try {
      const { cookie } = await approvedUser(stack);
      const headers = { cookie, accept: 'application/json' };
      const results = await compareThroughput(
        [
          { name: 'session only', url: `${stack.appUrl}/plain`, headers },
          { name: 'requireApproved()', url: `${stack.appUrl}/gated`, headers },
          { name: 'requireApproved({ maxAgeMs: 5000 })', url: `${stack.appUrl}/gated-cached`, headers },
        ],
        LOAD,
      );
      const base = results['session only']!;
      const reread = results['requireApproved()']!;
      const cached = results['requireApproved({ maxAgeMs: 5000 })']!;
      for (const [name, r] of Object.entries(results)) {
        if (r.non2xx > 0 || r.errors > 0) throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      }
      return {
        figures: {
          'gate.throughputRatio.reread': throughputRatio(reread, base),
          'gate.throughputRatio.cached': throughputRatio(cached, base),
        },
        details: {
          load: LOAD,
          ratio: 'median over rounds of (variant req/s / baseline req/s) of the same round',
          perRoundRatios: {
            reread: reread.perRound.map((rps, i) => round(rps / base.perRound[i]!)),
            cached: cached.perRound.map((rps, i) => round(rps / base.perRound[i]!)),
          },
          requestsPerSec: results,
        },
      };
    } finally {
      await stack.stop();
    }
  },
};

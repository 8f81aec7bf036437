import { startChild } from '../harness/child.js';
import { buildNextBenchApp, startNextBenchApp } from '../harness/next-app.js';
import type { SandboxCommands } from '../harness/sandbox-process.js';
import {
  compareThroughput,
  type LoadSettings,
  perRoundRatios,
  type Target,
  throughputRatio,
  throughputRatioInterval,
} from '../harness/throughput.js';
import { approvedVisitors } from '../harness/users.js';
import type { Bench } from './bench.js';

/** As the other shells' visit figures: the pair alone, many rounds. */
const LOAD: LoadSettings = { connections: 10, durationSec: 1, rounds: 24, warmupSec: 1 };
const USERS = 50;

/**
 * @verify-kit/next's proxy gate on `next start` (harness/next-app.ts): kit.requireApproved() in
 * front of /visit against a pass-through proxy (NextResponse.next()) in front of /plain, the same
 * small route handler behind each, one built app, one process. 50 approved anonymous visitors, each
 * inside its visit, their sealed cookies round-robin.
 */
export const bench: Bench = {
  timeoutMs: 240_000,
  async run({ log }) {
    const buildSeconds = await buildNextBenchApp();
    log(`  next build: ${buildSeconds.toFixed(1)} s`);
    const sandbox = startChild<SandboxCommands>(new URL('../harness/sandbox-process.ts', import.meta.url));
    try {
      const upstream = await sandbox.call('start', { reviewDelayMs: 0 });
      const app = await startNextBenchApp(upstream);
      try {
        const stack = { sandboxUrl: upstream.url, apiKey: upstream.apiKey };
        const cookies = (await approvedVisitors(app.url, stack, USERS)).map((user) => user.cookie);
        const at = (name: string, path: string): Target => ({
          name,
          url: `${app.url}${path}`,
          headers: { accept: 'application/json' },
          cookies,
        });
        const rps = await compareThroughput([at('passThrough', '/plain'), at('gated', '/visit')], LOAD);
        const [gated, passThrough] = [rps.gated!, rps.passThrough!];
        const ratio = throughputRatio(gated, passThrough);
        log(`  next: proxy gate / pass-through proxy ${ratio} (${gated.rps} / ${passThrough.rps} req/s)`);
        return {
          figures: { 'next.gate.proxyVsPassThrough': ratio },
          details: {
            load: LOAD,
            users: USERS,
            buildSeconds: Math.round(buildSeconds * 10) / 10,
            ratio: 'median over rounds of (variant req/s / baseline req/s) of the same round',
            perRoundRatios: perRoundRatios(gated, passThrough),
            interval95: throughputRatioInterval(gated, passThrough),
            requestsPerSec: rps,
          },
        };
      } finally {
        await app.stop();
      }
    } finally {
      await sandbox.stop();
    }
  },
};

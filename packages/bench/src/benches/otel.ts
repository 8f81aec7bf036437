import { startChild } from '../harness/child.js';
import type { OtelAppCommands } from '../harness/otel-app-process.js';
import { withSandbox } from '../harness/stack.js';
import { compareRatios, type LoadSettings, type Target } from '../harness/throughput.js';
import { approvedUsers } from '../harness/users.js';
import { VISIT_LOAD } from '../harness/visit-vs-plain.js';
import type { Bench } from './bench.js';

const PEOPLE = 50;
/** The three kits, by their routes' first segment (harness/otel-app-process.ts). */
const MEASURED = ['none', 'hook', 'sdk'] as const;
/** The gate alone, in-process: 10 loops of calls, 24 interleaved rounds of 0.5 s. */
const IN_PROCESS_LOAD: LoadSettings = { connections: 10, durationSec: 0.5, rounds: 24, warmupSec: 1 };
const PAIRS = {
  hookNoSdkVsNoHook: ['hook', 'none'],
  sdkVsNoHook: ['sdk', 'none'],
} as const;
type Pair = keyof typeof PAIRS;

/** A comparison's ratio with its median's 95 % interval: `{ ratio, low, high }`. */
function withInterval(
  { ratios, details }: { ratios: Record<string, number>; details: { intervals95: Record<string, unknown> } },
  pair: Pair,
) {
  const interval = details.intervals95[pair] as { low: number; high: number } | null | undefined;
  return { ratio: ratios[pair]!, ...(interval ? { low: interval.low, high: interval.high } : {}) };
}

/**
 * What @verify-kit/otel costs the gate inside a visit (issue 41), on core's Fetch door on Node
 * (harness/otel-app-process.ts): 50 approved visitors, three kits alike but for `instrumentation`
 * (none, `openTelemetry()` with no SDK registered, `openTelemetry()` into the SDK recording), each ÷
 * none with its median's 95 % interval: the gate alone in the app's process (`otel.gate.*`, the
 * goal's), and its routes over HTTP (`otel.server.*`), each with the process's CPU µs per request.
 */
export const bench: Bench = {
  timeoutMs: 300_000,
  async run({ log }) {
    const app = startChild<OtelAppCommands>(new URL('../harness/otel-app-process.ts', import.meta.url));
    try {
      return await withSandbox(async (sandbox) => {
        const { url } = await app.call('start', {
          config: { upstreamUrl: sandbox.url, apiKey: sandbox.apiKey },
        });
        const stack = { appUrl: url, sandboxUrl: sandbox.url, apiKey: sandbox.apiKey };
        const cookies = (await approvedUsers(stack, PEOPLE, { visitOnly: true })).map((user) => user.cookie);
        const gate = await app.call('inProcess', {
          names: MEASURED,
          cookies,
          load: IN_PROCESS_LOAD,
          pairs: PAIRS,
        });
        const at = (name: string): Target => ({
          name,
          url: `${url}/${name}/visit`,
          headers: { accept: 'application/json' },
          cookies,
        });
        const server = await compareRatios(MEASURED.map(at), VISIT_LOAD, PAIRS, () => app.call('cpuMicros'));
        const recorded = await app.call('recorded');
        if (recorded === 0) throw new Error('the SDK recorded no gate decision: /sdk measured nothing');
        const figures = {
          'otel.gate.hookNoSdkVsNoHook': withInterval(gate, 'hookNoSdkVsNoHook'),
          'otel.gate.sdkVsNoHook': withInterval(gate, 'sdkVsNoHook'),
          'otel.server.hookNoSdkVsNoHook': withInterval(server, 'hookNoSdkVsNoHook'),
          'otel.server.sdkVsNoHook': withInterval(server, 'sdkVsNoHook'),
        };
        log(
          `  otel: the gate alone, hook with no SDK / no hook ${gate.ratios.hookNoSdkVsNoHook}, SDK / no hook ${gate.ratios.sdkVsNoHook}; over HTTP ${server.ratios.hookNoSdkVsNoHook}, ${server.ratios.sdkVsNoHook}`,
        );
        return {
          figures,
          details: {
            people: PEOPLE,
            gateDecisionsRecordedBySdk: recorded,
            gateInProcess: gate.details,
            overHttp: server.details,
          },
        };
      });
    } finally {
      await app.stop();
    }
  },
};

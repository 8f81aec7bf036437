import autocannon, { type Request } from 'autocannon';
import { interleave, median, medianInterval, round } from '../stats.js';

/**
 * One HTTP route under load (autocannon, in this process; the servers run in their own), or a
 * function (`call`, e.g. a client's request) run in `connections` loops, each call a 2xx.
 */
export type Target = { name: string; call: () => Promise<unknown> } | HttpTarget;

interface HttpTarget {
  name: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Cookie headers of distinct users, sent round-robin (one per request). */
  cookies?: readonly string[];
}

export interface LoadSettings {
  connections: number;
  durationSec: number;
  rounds: number;
  /** One short untimed run per target first (JIT, connection pools). */
  warmupSec: number;
}

export interface Throughput {
  /** 2xx answers per second over all rounds. */
  rps: number;
  perRound: number[];
  non2xx: number;
  errors: number;
}

/** One autocannon request whose Cookie header moves to the next user on every request. */
function roundRobin(cookies: readonly string[]) {
  let next = 0;
  return {
    setupRequest(request: Request) {
      request.headers = { ...request.headers, cookie: cookies[next++ % cookies.length]! };
      return request;
    },
  };
}

async function run(target: Target, connections: number, durationSec: number) {
  if ('call' in target) return callLoops(target.call, connections, durationSec);
  const result = await autocannon({
    url: target.url,
    method: target.method ?? 'GET',
    ...(target.headers ? { headers: target.headers } : {}),
    ...(target.body !== undefined ? { body: target.body } : {}),
    ...(target.cookies ? { requests: [roundRobin(target.cookies)] } : {}),
    connections,
    duration: durationSec,
    // autocannon notices the end of a run on its sample tick (default 1 s): short rounds need short ticks.
    sampleInt: 100,
  });
  return { ok: result['2xx'], seconds: result.duration, non2xx: result.non2xx, errors: result.errors };
}

/** `call` in `loops` loops for `durationSec`: the calls completed, and the seconds that took. */
async function callLoops(call: () => Promise<unknown>, loops: number, durationSec: number) {
  const started = performance.now();
  const end = started + durationSec * 1000;
  let ok = 0;
  const loop = async () => {
    while (performance.now() < end) {
      await call();
      ok++;
    }
  };
  await Promise.all(Array.from({ length: loops }, loop));
  return { ok, seconds: (performance.now() - started) / 1000, non2xx: 0, errors: 0 };
}

/**
 * Measures the targets in interleaved rounds (A B C, B C A, C A B, …) so that whatever else the
 * machine does at the time is shared by all of them; the ratios are what to read. Every answer
 * must be a 2xx: anything else throws (a figure of refusals or errors measures nothing).
 */
export async function compareThroughput(
  targets: readonly Target[],
  settings: LoadSettings,
): Promise<Record<string, Throughput>> {
  if (settings.warmupSec > 0) {
    for (const target of targets) await run(target, settings.connections, settings.warmupSec);
  }
  const rounds = await interleave(
    settings.rounds,
    targets.map((target) => () => run(target, settings.connections, settings.durationSec)),
  );
  return Object.fromEntries(
    targets.map((target, i) => {
      const runs = rounds[i]!;
      const sum = (of: (r: (typeof runs)[number]) => number) => runs.reduce((n, r) => n + of(r), 0);
      const [non2xx, errors] = [sum((r) => r.non2xx), sum((r) => r.errors)];
      if (non2xx > 0 || errors > 0) throw new Error(`${target.name}: ${non2xx} non-2xx, ${errors} errors`);
      const rps = Math.round(sum((r) => r.ok) / sum((r) => r.seconds));
      return [target.name, { rps, perRound: runs.map((r) => Math.round(r.ok / r.seconds)), non2xx, errors }];
    }),
  );
}

/** Each round's variant / baseline, unrounded. */
const ratios = (variant: Throughput, baseline: Throughput) =>
  variant.perRound.map((rps, i) => rps / (baseline.perRound[i] ?? Number.NaN)).filter(Number.isFinite);

/**
 * variant / baseline: the median of the per-round ratios, so that one round disturbed by something
 * else on the machine does not decide the figure (the totals are in the details too).
 */
export function throughputRatio(variant: Throughput, baseline: Throughput): number {
  const each = ratios(variant, baseline);
  if (each.length === 0) throw new Error('no round to compare');
  return round(median(each));
}

/** Each round's variant / baseline, for the spread behind a median. */
export function perRoundRatios(variant: Throughput, baseline: Throughput): number[] {
  return ratios(variant, baseline).map((r) => round(r));
}

/** The 95 % interval of throughputRatio's median (stats.ts, medianInterval): how far the noise reaches. */
export function throughputRatioInterval(variant: Throughput, baseline: Throughput) {
  const interval = medianInterval(perRoundRatios(variant, baseline));
  return interval === undefined ? undefined : { low: round(interval.low), high: round(interval.high) };
}

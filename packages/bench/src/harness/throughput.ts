import autocannon, { type Request } from 'autocannon';
import { median, medianInterval, round } from '../stats.js';

/** One HTTP route under load (autocannon, in this process; the servers run in their own). */
export interface Target {
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

/**
 * Measures the targets in interleaved rounds (A B C, B C A, C A B, …) so that whatever else the
 * machine does at the time is shared by all of them; the ratios are what to read.
 */
export async function compareThroughput(
  targets: readonly Target[],
  settings: LoadSettings,
): Promise<Record<string, Throughput>> {
  if (settings.warmupSec > 0) {
    for (const target of targets) await run(target, settings.connections, settings.warmupSec);
  }
  const totals = new Map(
    targets.map((t) => [t.name, { ok: 0, seconds: 0, non2xx: 0, errors: 0, perRound: [] as number[] }]),
  );
  for (let round = 0; round < settings.rounds; round++) {
    for (let i = 0; i < targets.length; i++) {
      const target = targets[(i + round) % targets.length]!;
      const r = await run(target, settings.connections, settings.durationSec);
      const total = totals.get(target.name)!;
      total.ok += r.ok;
      total.seconds += r.seconds;
      total.non2xx += r.non2xx;
      total.errors += r.errors;
      total.perRound.push(Math.round(r.ok / r.seconds));
    }
  }
  return Object.fromEntries(
    [...totals].map(([name, t]) => [
      name,
      { rps: Math.round(t.ok / t.seconds), perRound: t.perRound, non2xx: t.non2xx, errors: t.errors },
    ]),
  );
}

/**
 * variant / baseline: the median of the per-round ratios, so that one round disturbed by something
 * else on the machine does not decide the figure (the totals are in the details too).
 */
export function throughputRatio(variant: Throughput, baseline: Throughput): number {
  const sorted = variant.perRound
    .map((rps, i) => rps / (baseline.perRound[i] ?? Number.NaN))
    .filter(Number.isFinite);
  if (sorted.length === 0) throw new Error('no round to compare');
  return round(median(sorted));
}

/** Each round's variant / baseline, for the spread behind a median. */
export function perRoundRatios(variant: Throughput, baseline: Throughput): number[] {
  return variant.perRound.map((rps, i) => round(rps / (baseline.perRound[i] ?? Number.NaN)));
}

/** The 95 % interval of throughputRatio's median (stats.ts, medianInterval): how far the noise reaches. */
export function throughputRatioInterval(variant: Throughput, baseline: Throughput) {
  const interval = medianInterval(perRoundRatios(variant, baseline).filter(Number.isFinite));
  return interval === undefined ? undefined : { low: round(interval.low), high: round(interval.high) };
}

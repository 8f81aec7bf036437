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
  /** With `cpuMicros`: the server's CPU time per 2xx answer over all rounds, µs. */
  cpuUs?: number;
}

/** The server process's CPU time so far (user + system), µs: read before and after each run. */
export type CpuMicros = () => Promise<number>;

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

/** One run of `target`: the 2xx answers and the seconds they took (and the server's CPU µs); anything but a 2xx throws. */
async function run(
  target: Target,
  connections: number,
  durationSec: number,
  cpuMicros?: CpuMicros,
): Promise<{ ok: number; seconds: number; cpuUs?: number }> {
  if (cpuMicros === undefined) return runOnce(target, connections, durationSec);
  const before = await cpuMicros();
  const result = await runOnce(target, connections, durationSec);
  return { ...result, cpuUs: (await cpuMicros()) - before };
}

async function runOnce(target: Target, connections: number, durationSec: number) {
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
  const { non2xx, errors } = result;
  // A figure of refusals or errors measures nothing.
  if (non2xx > 0 || errors > 0) throw new Error(`${target.name}: ${non2xx} non-2xx, ${errors} errors`);
  return { ok: result['2xx'], seconds: result.duration };
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
  return { ok, seconds: (performance.now() - started) / 1000 };
}

/**
 * Measures the targets in interleaved rounds (A B C, B C A, C A B, …) so that whatever else the
 * machine does at the time is shared by all of them; the ratios are what to read.
 */
export async function compareThroughput(
  targets: readonly Target[],
  settings: LoadSettings,
  cpuMicros?: CpuMicros,
): Promise<Record<string, Throughput>> {
  if (settings.warmupSec > 0) {
    for (const target of targets) await run(target, settings.connections, settings.warmupSec);
  }
  const rounds = await interleave(
    settings.rounds,
    targets.map((target) => () => run(target, settings.connections, settings.durationSec, cpuMicros)),
  );
  return Object.fromEntries(
    targets.map((target, i) => {
      const runs = rounds[i]!;
      const sum = (of: (r: (typeof runs)[number]) => number) => runs.reduce((n, r) => n + of(r), 0);
      const rps = Math.round(sum((r) => r.ok) / sum((r) => r.seconds));
      const perRound = runs.map((r) => Math.round(r.ok / r.seconds));
      if (cpuMicros === undefined) return [target.name, { rps, perRound }];
      return [target.name, { rps, perRound, cpuUs: round(sum((r) => r.cpuUs ?? 0) / sum((r) => r.ok), 1) }];
    }),
  );
}

/** How every ratio of the bench is read (its details say so). */
export const RATIO_READING = 'median over rounds of (variant req/s / baseline req/s) of the same round';

/** What a comparison reads: a name for each ratio, and its variant and baseline (target names). */
export type Pairs<P extends string> = Record<P, readonly [variant: string, baseline: string]>;

/**
 * variant / baseline: the median of the per-round ratios, so that one round disturbed by something
 * else on the machine does not decide the figure; each round's ratio, for the spread behind it; and
 * the median's 95 % interval (stats.ts, medianInterval): how far the noise reaches.
 */
function ratioOf(variant: Throughput | undefined, baseline: Throughput | undefined) {
  if (variant === undefined || baseline === undefined) throw new Error('a ratio of a target not measured');
  const each = variant.perRound.map((rps, i) => rps / (baseline.perRound[i] ?? Number.NaN));
  const rounds = each.filter(Number.isFinite);
  if (rounds.length === 0) throw new Error('no round to compare');
  const interval = medianInterval(rounds);
  return {
    ratio: round(median(rounds)),
    perRound: rounds.map((r) => round(r)),
    interval95: interval && { low: round(interval.low), high: round(interval.high) },
  };
}

/**
 * The targets measured together (compareThroughput), then each of `pairs` read as variant ÷
 * baseline: the ratios (the figures), and the details behind them as every benchmark reports them.
 */
export async function compareRatios<P extends string>(
  targets: readonly Target[],
  load: LoadSettings,
  pairs: Pairs<P>,
  cpuMicros?: CpuMicros,
) {
  const requestsPerSec = await compareThroughput(targets, load, cpuMicros);
  const read = Object.entries<Pairs<P>[P]>(pairs).map(([name, [variant, baseline]]) => ({
    name,
    ...ratioOf(requestsPerSec[variant], requestsPerSec[baseline]),
  }));
  const each = <K extends keyof (typeof read)[number]>(key: K) =>
    Object.fromEntries(read.map((r) => [r.name, r[key]])) as Record<P, (typeof read)[number][K]>;
  return {
    ratios: each('ratio'),
    details: {
      load,
      ratio: RATIO_READING,
      perRoundRatios: each('perRound'),
      // Where the true median lies (95 %): a goal inside the interval is not decided by one run.
      intervals95: each('interval95'),
      requestsPerSec,
    },
  };
}

/** Session creations through the kit at `appUrl`: POST /identity/session with no cookie, a new browser session each time. */
export const creationAt = (name: string, appUrl: string): Target => ({
  name,
  url: `${appUrl}/identity/session`,
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json' },
  body: '{}',
});

// `tsx src/profile.ts [--app hono|fetch|express] [--binding session|memory|redis] [--routes /plain,/visit]
// [--create] [--seconds 5] [--top 30]`: where the app process's CPU time goes under one route's load
// at a time, µs per request, by area (a package, a part of Node, V8 and Node's C++, the kernel) and by
// function, each route beside the first (the baseline). The bench's stack, apps and people
// (harness/); Linux `perf record -e cpu-clock` on the app process (on-CPU samples only: time the
// process spends preempted by the machine's other work is not counted), JS functions named through
// `node --perf-basic-prof`. The perf files stay in packages/bench/results/profiles/ (gitignored).
// `--create`: POST /identity/session with no cookie (a session creation) instead of the routes, on
// the Express kit first, then on the shell. `--rounds`: the routes profiled in turn that many times.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type RedisServer, startRedisServer } from '@verify-kit/testkit';
import type { BindingMode } from './harness/app.js';
import { type Stack, withStack } from './harness/stack.js';
import { compareThroughput, creationAt, type Target } from './harness/throughput.js';
import { approvedUsers } from './harness/users.js';
import { splitPerf } from './profile-split.js';
import { round } from './stats.js';
import { table } from './table.js';

const { values } = parseArgs({
  options: {
    app: { type: 'string', default: 'hono' },
    binding: { type: 'string', default: 'session' },
    routes: { type: 'string', default: '/plain,/visit' },
    create: { type: 'boolean', default: false },
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '1' },
    top: { type: 'string', default: '30' },
  },
});
const app = values.app as 'hono' | 'fetch' | 'express';
const binding = values.binding as BindingMode;
const seconds = Number(values.seconds);
const dir = fileURLToPath(new URL('../results/profiles/', import.meta.url));
mkdirSync(dir, { recursive: true });
// Every process of the stack writes /tmp/perf-<pid>.map, perf's names for JS functions.
process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --perf-basic-prof`.trim();

/** The app's URL, and the Cookie headers of 50 approved people inside their visits (none for --create). */
async function prepare(stack: Stack) {
  const url = app === 'express' ? stack.appUrl : (await stack.app.call('listenShell', app)).url;
  if (values.create) return { url, cookies: undefined };
  const options = app === 'express' ? { signIn: binding !== 'session' } : { visitOnly: true };
  const users = await approvedUsers({ ...stack, appUrl: url }, 50, options);
  return { url, cookies: users.map((user) => user.cookie) };
}

/** One route's load with perf recording the app process: requests served, and the split. */
async function profileOf(stack: Stack, target: Target, file: string) {
  const load = { connections: 10, rounds: 1, warmupSec: 0 };
  await compareThroughput([target], { ...load, durationSec: 2 });
  const pid = String(await stack.app.call('pid'));
  const args = ['record', '-e', 'cpu-clock', '-F', '4999', '-p', pid, '-o', file];
  const perf: ChildProcess = spawn('perf', args, { stdio: 'ignore' });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const { rps } = (await compareThroughput([target], { ...load, durationSec: seconds }))[target.name]!;
  const exited = once(perf, 'exit');
  perf.kill('SIGINT');
  await exited;
  return { requests: rps * seconds, rps, ...splitPerf(file) };
}

async function main() {
  let redis: RedisServer | undefined;
  if (binding === 'redis') redis = await startRedisServer();
  const appConfig = { binding, maxReadsPerSecond: 10_000, ...(redis ? { redisUrl: redis.url } : {}) };
  try {
    await withStack({ app: appConfig }, async (stack) => {
      const { url, cookies } = await prepare(stack);
      // A creation on the shell beside the Express kit's, in the same process (fetch.createRatioVsExpress).
      const creations = app === 'express' ? [] : [creationAt('express create', stack.appUrl)];
      const targets: Target[] = values.create
        ? [...creations, creationAt(`${app} create`, url)]
        : values.routes.split(',').map((path) => ({
            name: path,
            url: `${url}${path}`,
            headers: { accept: 'application/json' },
            ...(cookies ? { cookies } : {}),
          }));
      // Rounds interleaved (A B, B A, …), each route's profiles summed: what the machine's other
      // work does at the time is shared by all.
      const runs: Run[] = targets.map((target) => ({
        target: target.name,
        requests: 0,
        rps: 0,
        busyUs: 0,
        areas: new Map(),
        functions: new Map(),
      }));
      for (let round = 0; round < Number(values.rounds); round++) {
        for (let k = 0; k < targets.length; k++) {
          const i = (k + round) % targets.length;
          const target = targets[i]!;
          const file = `${dir}${app}-${binding}-${target.name.replace(/\W+/g, '_')}-${round}.perf.data`;
          add(runs[i]!, await profileOf(stack, target, file), round);
        }
      }
      report(runs);
      console.log(`\nperf files in ${dir}`);
    });
  } finally {
    await redis?.stop();
  }
}

type Run = { target: string; requests: number; rps: number } & ReturnType<typeof splitPerf>;

/** One more profile of a route into its sum (rps: the mean over its rounds). */
function add(run: Run, one: Awaited<ReturnType<typeof profileOf>>, round: number): void {
  run.requests += one.requests;
  run.rps = Math.round((run.rps * round + one.rps) / (round + 1));
  run.busyUs += one.busyUs;
  for (const of of ['areas', 'functions'] as const) {
    for (const [key, us] of one[of]) run[of].set(key, (run[of].get(key) ?? 0) + us);
  }
}

/** µs per request by area, then by function, sorted by what the last route adds over the first. */
function report(runs: Run[]) {
  const first = runs[0]!;
  const last = runs.at(-1)!;
  const perRequest = (us: number | undefined, run: Run) => round((us ?? 0) / run.requests, 2);
  const gain = (key: string, of: 'areas' | 'functions') =>
    perRequest(last[of].get(key), last) - perRequest(first[of].get(key), first);
  const header = ['', ...runs.map((run) => `${run.target} µs/req`)];
  if (runs.length > 1) header.push(`${last.target} − ${first.target}`);
  const rowsOf = (of: 'areas' | 'functions', top: number) =>
    [...new Set(runs.flatMap((run) => [...run[of].keys()]))]
      .sort((a, b) => gain(b, of) - gain(a, of) || (last[of].get(b) ?? 0) - (last[of].get(a) ?? 0))
      .slice(0, top)
      .map((key) => [
        key,
        ...runs.map((run) => String(perRequest(run[of].get(key), run))),
        ...(runs.length > 1 ? [String(round(gain(key, of), 2))] : []),
      ]);
  const total = (run: Run) => perRequest(run.busyUs, run);
  const totals = ['CPU (on-CPU samples)', ...runs.map((run) => String(total(run)))];
  if (runs.length > 1) totals.push(String(round(total(last) - total(first), 2)));
  const served = ['requests/s', ...runs.map((run) => String(run.rps))];
  const each = `${values.rounds} × ${seconds} s of load each`;
  console.log(`\n${app}${app === 'express' ? ` (${binding})` : ''}, ${each}\n`);
  console.log(table(header, [served, totals, ...rowsOf('areas', 40)]));
  console.log(`\nfunctions${runs.length > 1 ? `, by what ${last.target} adds over ${first.target}` : ''}:\n`);
  console.log(table(header, rowsOf('functions', Number(values.top))));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

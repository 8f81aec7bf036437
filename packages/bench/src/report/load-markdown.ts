/*
 * The "Load, soak and faults" section of BENCHMARKS.md, from the last `pnpm load` runs
 * (packages/bench/load-results.json: keys `load`, `soak`, `faults`, each written by its mode).
 */

interface Step {
  p50: number;
  p99: number;
}

interface ProcessMemory {
  rssMB: number;
  heapUsedMB: number;
  sessions?: number;
}

interface FlowRun {
  ranAt: string;
  config: {
    users: number;
    concurrency: number;
    reviewDelayMs: number;
    soakSeconds: number;
    loadAverage1m: number;
  };
  users: number;
  waves: number;
  wallSeconds: number;
  usersPerSecond: number;
  errors: number;
  falseGrants: number;
  stepsMs: Record<string, Step>;
  upstreamCallsPerUser: { total: number; create: number; read: number };
  memory: Record<string, { kit: ProcessMemory; sandbox: ProcessMemory }>;
}

interface FaultRun {
  ranAt: string;
  config: { users: number; rates: Record<string, number> };
  gatedRequests: number;
  falseGrants: number;
  contractViolations: number;
  approvedUsers: number;
  approvedUsersPassed: number;
  proxyOutcomes: Record<string, number>;
  gateAnswers: Record<string, number>;
  processFailures: Record<string, number>;
}

export interface LoadResults {
  load?: FlowRun;
  soak?: FlowRun;
  faults?: FaultRun;
}

const heap = (m: ProcessMemory) =>
  `${m.heapUsedMB} MB heap, ${m.rssMB} MB RSS${m.sessions === undefined ? '' : `, ${m.sessions} sessions`}`;

function flow(title: string, command: string, run: FlowRun): string[] {
  const c = run.config;
  return [
    `### ${title}`,
    '',
    `\`${command}\` — ${run.ranAt}, ${run.users} users (${run.waves} wave${run.waves === 1 ? '' : 's'}, ${c.concurrency} at a time, review delay ${c.reviewDelayMs} ms, webhooks on) in ${run.wallSeconds} s: **${run.errors} errors, ${run.falseGrants} false grants**, ${run.usersPerSecond} users/s; load average ${c.loadAverage1m} at the start. Upstream calls per user: ${run.upstreamCallsPerUser.total} (${run.upstreamCallsPerUser.create} create, ${run.upstreamCallsPerUser.read} reads).`,
    '',
    '| step | p50 ms | p99 ms |',
    '|---|---|---|',
    ...Object.entries(run.stepsMs).map(([step, s]) => `| ${step} | ${s.p50} | ${s.p99} |`),
    '',
    '| memory (after GC) | kit | sandbox |',
    '|---|---|---|',
    ...Object.entries(run.memory).map(([when, m]) => `| ${when} | ${heap(m.kit)} | ${heap(m.sandbox)} |`),
    '',
  ];
}

function faults(run: FaultRun): string[] {
  const rates = Object.entries(run.config.rates)
    .map(([fault, rate]) => `${fault} ${Math.round(rate * 100)}%`)
    .join(', ');
  const failures = Object.values(run.processFailures).reduce((sum, n) => sum + n, 0);
  return [
    '### Faults',
    '',
    `\`pnpm load --faults\` — ${run.ranAt}, ${run.config.users} users behind a fault-injecting proxy between the kit and the sandbox (${rates}). **${run.falseGrants} false grants of ${run.gatedRequests} gated requests** (each 200 checked against the sandbox directly), ${run.contractViolations} answers without a typed code, ${failures} crashes or unhandled rejections; ${run.approvedUsersPassed} of ${run.approvedUsers} users the sandbox approved got through.`,
    '',
    '| proxy did | times |',
    '|---|---|',
    ...Object.entries(run.proxyOutcomes).map(([what, n]) => `| ${what} | ${n} |`),
    '',
    '| the gate answered | times |',
    '|---|---|',
    ...Object.entries(run.gateAnswers).map(([what, n]) => `| ${what} | ${n} |`),
    '',
  ];
}

/** Pure: the section's lines; none when `pnpm load` has not been run. */
export function renderLoadSection(results: LoadResults | undefined): string[] {
  if (results === undefined || (!results.load && !results.soak && !results.faults)) return [];
  return [
    '## Load, soak and faults (`pnpm load`)',
    '',
    'Simulated users, each with its own cookies: create a session through the kit, read the status, submit',
    'a document through the sandbox control API, wait for the decision (long-poll), pass the gate. The kit',
    'and the sandbox run in their own processes on 127.0.0.1; a counting proxy sits between them. Figures',
    'from the last run of each mode (`packages/bench/load-results.json`); rerun with `pnpm load`,',
    '`pnpm load --soak-seconds 60 --users 300` and `pnpm load --faults --users 200`.',
    '',
    ...(results.load ? flow('Load', 'pnpm load', results.load) : []),
    ...(results.soak
      ? flow(
          'Soak',
          `pnpm load --soak-seconds ${results.soak.config.soakSeconds} --users ${results.soak.config.users}`,
          results.soak,
        )
      : []),
    ...(results.faults ? faults(results.faults) : []),
  ];
}

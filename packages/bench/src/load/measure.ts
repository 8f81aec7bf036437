import { createSandboxControl } from '@verify-kit/sandbox/control';
import { Agent } from 'undici';
import type { ProcessStats } from '../harness/child.js';
import type { Stack } from '../harness/stack.js';
import { benchBrowser } from '../harness/users.js';
import { mb, runPool, type Summary, summarize } from '../stats.js';
import { runUser, STEPS, type Step, type UserResult } from './user-flow.js';

export interface MemorySnapshot {
  kit: { rssMB: number; heapUsedMB: number; sessions: number };
  sandbox: { rssMB: number; heapUsedMB: number };
}

const memoryOf = (stats: ProcessStats) => ({
  rssMB: mb(stats.rssBytes),
  heapUsedMB: mb(stats.heapUsedBytes),
});

/** Both processes' memory after a full GC (the kit's count of live sessions first: it drops the expired). */
export async function snapshot(stack: Stack): Promise<MemorySnapshot> {
  const sessions = await stack.app.call('sessionCount');
  const [kit, sandbox] = await Promise.all([stack.app.stats(), stack.sandbox.stats()]);
  return { kit: { ...memoryOf(kit), sessions }, sandbox: memoryOf(sandbox) };
}

export interface Wave {
  users: number;
  ok: number;
  wallMs: number;
  /** `message -> how many users`. */
  errors: Map<string, number>;
  timings: Record<Step, number[]>;
  longPolls: number;
  falseGrants: number;
}

/** The people's side of a load run: one keep-alive pool to the kit, the sandbox's control API directly. */
export function loadClients(stack: Stack, concurrency: number) {
  // Idle sockets to the kit are closed by this side long before the kit's 65 s (no reuse race).
  const kit = new Agent({
    connections: concurrency * 3 + 16,
    keepAliveTimeout: 10_000,
    keepAliveMaxTimeout: 10_000,
  });
  return {
    kit,
    sandbox: createSandboxControl({ url: stack.sandboxUrl, apiKey: stack.apiKey }),
    close: () => kit.close(),
  };
}

/** Runs `count` people, `concurrency` at a time, each the whole flow of user-flow.ts. */
export async function runWave(
  stack: Stack,
  clients: ReturnType<typeof loadClients>,
  count: number,
  concurrency: number,
  deadline: number,
): Promise<Wave> {
  const results: UserResult[] = [];
  const started = performance.now();
  await runPool(count, concurrency, async () => {
    const browser = benchBrowser(stack, clients.kit);
    results.push(await runUser({ browser, sandbox: clients.sandbox, waitSeconds: 10, deadline }));
  });
  const timings = Object.fromEntries(STEPS.map((step) => [step, [] as number[]])) as Record<Step, number[]>;
  const errors = new Map<string, number>();
  for (const result of results) {
    for (const step of STEPS) {
      const ms = result.timings[step];
      if (ms !== undefined) timings[step].push(ms);
    }
    if (result.error !== undefined) errors.set(result.error, (errors.get(result.error) ?? 0) + 1);
  }
  return {
    users: count,
    ok: results.filter((r) => r.ok).length,
    wallMs: performance.now() - started,
    errors,
    timings,
    longPolls: results.reduce((sum, r) => sum + r.longPolls, 0),
    falseGrants: results.filter((r) => r.falseGrant).length,
  };
}

/** Several waves as one, for the report. */
export function mergeWaves(waves: readonly Wave[], wallMs: number): Wave {
  const sum = (of: (w: Wave) => number) => waves.reduce((n, w) => n + of(w), 0);
  const errors = new Map<string, number>();
  for (const wave of waves) for (const [m, n] of wave.errors) errors.set(m, (errors.get(m) ?? 0) + n);
  return {
    users: sum((w) => w.users),
    ok: sum((w) => w.ok),
    wallMs,
    errors,
    timings: Object.fromEntries(STEPS.map((s) => [s, waves.flatMap((w) => w.timings[s])])) as Wave['timings'],
    longPolls: sum((w) => w.longPolls),
    falseGrants: sum((w) => w.falseGrants),
  };
}

/** `message -> how many users`, most frequent first. */
export function errorList(errors: Map<string, number>) {
  return [...errors].sort((a, b) => b[1] - a[1]).map(([message, users]) => ({ message, users }));
}

export function stepSummaries(timings: Record<Step, number[]>): Record<Step, Summary> {
  return Object.fromEntries(STEPS.map((step) => [step, summarize(timings[step])])) as Record<Step, Summary>;
}

/** Upstream calls the kit made, per user, by kind (the counting proxy's figures). */
export function upstreamPerUser(stack: Stack, users: number) {
  const stats = stack.proxy?.stats();
  if (stats === undefined) throw new Error('the load stack runs with a counting proxy');
  const per = (n: number) => Math.round((n / users) * 100) / 100;
  return {
    total: per(stats.requests),
    create: per(stats.byRoute.create),
    read: per(stats.byRoute.read),
    other: per(stats.byRoute.verify + stats.byRoute.qr + stats.byRoute.other),
  };
}

/** The kit's and the sandbox's failures: a real server would have died of either. */
export async function processFailures(stack: Stack) {
  const [kit, sandbox] = await Promise.all([stack.app.stats(), stack.sandbox.stats()]);
  return {
    kitUnhandledRejections: kit.unhandledRejections,
    kitUncaughtExceptions: kit.uncaughtExceptions,
    sandboxUnhandledRejections: sandbox.unhandledRejections,
    sandboxUncaughtExceptions: sandbox.uncaughtExceptions,
  };
}

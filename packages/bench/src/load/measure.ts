import type { ProcessStats } from './ipc.js';
import { mb } from './report.js';
import type { LoadStack } from './stack.js';
import { runPool, type Summary, summarize } from './stats.js';
import { runUser, STEPS, type Step, type UserResult } from './user-flow.js';

export interface ProcessMemory {
  rssMB: number;
  heapUsedMB: number;
}

export interface MemorySnapshot {
  kit: ProcessMemory & { sessions: number };
  sandbox: ProcessMemory;
}

const memoryOf = (stats: ProcessStats): ProcessMemory => ({
  rssMB: mb(stats.rssBytes),
  heapUsedMB: mb(stats.heapUsedBytes),
});

/** Both processes' memory after a full GC (the kit's count of live sessions first). */
export async function snapshot(stack: LoadStack): Promise<MemorySnapshot> {
  const [kit, sandbox] = await Promise.all([stack.kit.stats(), stack.sandboxProcess.stats()]);
  return { kit: { ...memoryOf(kit), sessions: kit.extra.sessions ?? 0 }, sandbox: memoryOf(sandbox) };
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

/** Runs `count` users, `concurrency` at a time, each the whole flow of user-flow.ts. */
export async function runWave(
  stack: LoadStack,
  count: number,
  concurrency: number,
  deadline: number,
): Promise<Wave> {
  const results: UserResult[] = [];
  const falseBefore = stack.judge.falseGrants;
  const started = performance.now();
  await runPool(count, concurrency, async () => {
    results.push(
      await runUser({
        kitUrl: stack.kit.info.url,
        kitDispatcher: stack.kitDispatcher,
        sandbox: stack.sandbox,
        judge: stack.judge,
        waitSeconds: 10,
        deadline,
      }),
    );
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
    falseGrants: stack.judge.falseGrants - falseBefore,
  };
}

export function stepSummaries(timings: Record<Step, number[]>): Record<Step, Summary> {
  return Object.fromEntries(STEPS.map((step) => [step, summarize(timings[step])])) as Record<Step, Summary>;
}

/** Upstream calls the kit made, per user, by kind (from the proxy's counters). */
export function upstreamPerUser(stack: LoadStack, users: number) {
  const stats = stack.proxy.stats();
  const per = (n: number) => Math.round((n / users) * 100) / 100;
  return {
    total: per(stats.requests),
    create: per(stats.byRoute.create),
    read: per(stats.byRoute.read),
    other: per(stats.byRoute.verify + stats.byRoute.qr + stats.byRoute.other),
  };
}

/** The kit's and the sandbox's failures: a real server would have died of either. */
export async function processFailures(stack: LoadStack) {
  const [kit, sandbox] = await Promise.all([stack.kit.stats(), stack.sandboxProcess.stats()]);
  return {
    kitUnhandledRejections: kit.unhandledRejections,
    kitUncaughtExceptions: kit.uncaughtExceptions,
    sandboxUnhandledRejections: sandbox.unhandledRejections,
    sandboxUncaughtExceptions: sandbox.uncaughtExceptions,
  };
}

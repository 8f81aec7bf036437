import { createSandboxControl } from '@verify-kit/sandbox/control';
import { Agent } from 'undici';
import type { ProcessStats } from '../harness/child.js';
import type { Stack } from '../harness/stack.js';
import { benchBrowser } from '../harness/users.js';
import { mb, runPool, type Summary, summarize } from '../stats.js';
import { runUser, STEPS, type Step, type UserResult } from './user-flow.js';

const memoryOf = (stats: ProcessStats) => ({
  rssMB: mb(stats.rssBytes),
  heapUsedMB: mb(stats.heapUsedBytes),
});

/** Both processes' memory after a full GC (the kit's count of live sessions first: it drops the expired). */
export async function snapshot(stack: Stack) {
  const sessions = await stack.app.call('sessionCount');
  const [kit, sandbox] = await Promise.all([stack.app.stats(), stack.sandbox.stats()]);
  return { kit: { ...memoryOf(kit), sessions }, sandbox: memoryOf(sandbox) };
}
export type MemorySnapshot = Awaited<ReturnType<typeof snapshot>>;

/** One wave of people: each one's result. */
export interface Wave {
  results: UserResult[];
  wallMs: number;
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
  return { results, wallMs: performance.now() - started };
}

/** `message -> how many users`, most frequent first. */
export function errorList(results: readonly UserResult[]) {
  const errors = new Map<string, number>();
  for (const { error } of results) if (error !== undefined) errors.set(error, (errors.get(error) ?? 0) + 1);
  return [...errors].sort((a, b) => b[1] - a[1]).map(([message, users]) => ({ message, users }));
}

/** Each step's timings over all the users that got that far. */
export function stepSummaries(results: readonly UserResult[]): Record<Step, Summary> {
  const of = (step: Step) => results.flatMap((r) => r.timings[step] ?? []);
  return Object.fromEntries(STEPS.map((step) => [step, summarize(of(step))])) as Record<Step, Summary>;
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

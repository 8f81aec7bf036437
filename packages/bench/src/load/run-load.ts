import { availableParallelism, loadavg } from 'node:os';
import { startStack } from '../harness/stack.js';
import { sleep, summarize } from '../stats.js';
import type { LoadArgs } from './args.js';
import {
  errorList,
  loadClients,
  type MemorySnapshot,
  processFailures,
  runWave,
  snapshot,
  stepSummaries,
  upstreamPerUser,
  type Wave,
} from './measure.js';
import { printReport } from './print.js';

const WARM_UP_USERS = 20;
/** Past everything's life: the sandbox's sessions (30 min) and retention (24 h), the kit's reads (1 h) and hints (48 h). */
const EXPIRE_ALL_MS = 49 * 3600_000;
/** Goal: after expiry the kit's heap is back within 10 % of the warm baseline. */
const HEAP_RETURN_GOAL = 1.1;
/** express-session lifetime in soak mode: longer than one user's flow, short enough to wait out, longer than the kit's sweep. */
const SOAK_SESSION_MAX_AGE_MS = 45_000;

export type LoadFigures = Awaited<ReturnType<typeof runLoad>>['figures'];

/** `pnpm load` (one run of N users) and `pnpm load --soak-seconds S` (waves, then expiry). */
export async function runLoad(args: LoadArgs, deadline: number) {
  const soak = args.soakSeconds > 0;
  const stack = await startStack({
    reviewDelayMs: args.reviewDelayMs,
    webhooks: args.webhooks,
    countCalls: true,
    app: { sessionMaxAgeMs: soak ? SOAK_SESSION_MAX_AGE_MS : 30 * 60_000 },
  });
  const clients = loadClients(stack, args.concurrency);
  const wave = (users: number, concurrency: number) => runWave(stack, clients, users, concurrency, deadline);
  // The sandbox's clock moves each time; the kit's only at the end (the sandbox signs webhooks with the
  // real time, which a kit ahead of it refuses as stale). The wait outlasts the cookies and the kit's
  // sweep of expired entries (every 30 s).
  const expireAll = async (kitToo: boolean) => {
    await stack.sandbox.call('advanceClock', EXPIRE_ALL_MS);
    if (kitToo) await stack.app.call('advanceClock', EXPIRE_ALL_MS);
    await sleep(SOAK_SESSION_MAX_AGE_MS + 1000);
  };
  try {
    const memory: [string, MemorySnapshot][] = [['started', await snapshot(stack)]];
    const warmUp = await wave(WARM_UP_USERS, WARM_UP_USERS);
    if (warmUp.results.some((r) => !r.ok)) {
      throw new Error(`warm-up failed: ${JSON.stringify(errorList(warmUp.results).slice(0, 3))}`);
    }
    if (soak) await expireAll(false);
    memory.push([soak ? 'baseline (warm, expired)' : 'before (warm)', await snapshot(stack)]);
    stack.proxy?.resetStats();

    const waves: Wave[] = [];
    const series: Record<string, number>[] = [];
    const soakEnd = Date.now() + args.soakSeconds * 1000;
    const started = performance.now();
    do {
      const done = await wave(args.users, args.concurrency);
      waves.push(done);
      if (soak) series.push(await sample(waves.length, done, await snapshot(stack), started));
    } while (soak && Date.now() < soakEnd && Date.now() < deadline);
    const wallMs = performance.now() - started;
    const all = waves.flatMap((w) => w.results);
    const users = all.length;
    const deliveries = await clients.sandbox.deliveries();
    const webhooks = {
      attemptsLogged: deliveries.length,
      failed: deliveries.filter((d) => !d.ok).length,
      durationMs: summarize(deliveries.map((d) => d.durationMs)),
    };
    memory.push([soak ? 'peak (after the last wave)' : 'after', await snapshot(stack)]);
    if (soak) {
      await expireAll(true);
      memory.push(['after expiry', await snapshot(stack)]);
    }
    const figures = {
      config: { ...args, node: process.version, cpus: availableParallelism(), loadAverage1m: loadavg()[0] },
      ranAt: new Date().toISOString(),
      users,
      waves: waves.length,
      wallSeconds: Math.round(wallMs / 100) / 10,
      usersPerSecond: Math.round((users / wallMs) * 10_000) / 10,
      errors: all.filter((r) => !r.ok).length,
      errorMessages: errorList(all).slice(0, 20),
      falseGrants: all.filter((r) => r.falseGrant).length,
      stepsMs: stepSummaries(all),
      upstreamCallsPerUser: upstreamPerUser(stack, users),
      longPollsPerUser: Math.round((all.reduce((n, r) => n + r.longPolls, 0) / users) * 100) / 100,
      ...(args.webhooks ? { webhookDeliveries: webhooks } : {}),
      memory: Object.fromEntries(memory),
      ...(soak ? { heapReturn: heapReturnOf(memory), series } : {}),
      processFailures: await processFailures(stack),
      processesAlive: stack.app.exited === undefined && stack.sandbox.exited === undefined,
    };
    printReport(figures, memory);
    return {
      mode: soak ? 'soak' : 'load',
      figures,
      ok: figures.errors === 0 && figures.falseGrants === 0 && figures.processesAlive,
    };
  } finally {
    await clients.close();
    await stack.stop();
  }
}

/** One soak wave's line of the memory series (printed as it goes). */
async function sample(index: number, done: Wave, m: MemorySnapshot, started: number) {
  const ok = done.results.filter((r) => r.ok).length;
  const users = done.results.length;
  console.log(
    `wave ${index}: ${ok}/${users} ok, kit heap ${m.kit.heapUsedMB} MB, sandbox heap ${m.sandbox.heapUsedMB} MB`,
  );
  return {
    wave: index,
    elapsedSeconds: Math.round((performance.now() - started) / 100) / 10,
    users,
    errors: users - ok,
    kitHeapMB: m.kit.heapUsedMB,
    kitRssMB: m.kit.rssMB,
    kitSessions: m.kit.sessions,
    sandboxHeapMB: m.sandbox.heapUsedMB,
    sandboxRssMB: m.sandbox.rssMB,
  };
}

/** The kit's heap after everything expired, against the warm baseline (the soak's memory goal). */
function heapReturnOf(memory: [string, MemorySnapshot][]) {
  const baselineMB = memory[1]![1].kit.heapUsedMB;
  const afterExpiryMB = memory.at(-1)![1].kit.heapUsedMB;
  const ratio = Math.round((afterExpiryMB / baselineMB) * 100) / 100;
  return { baselineMB, afterExpiryMB, ratio, goal: HEAP_RETURN_GOAL, met: ratio <= HEAP_RETURN_GOAL };
}

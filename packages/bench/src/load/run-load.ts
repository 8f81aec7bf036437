import { availableParallelism, loadavg } from 'node:os';
import type { LoadArgs } from './args.js';
import {
  type MemorySnapshot,
  processFailures,
  runWave,
  snapshot,
  stepSummaries,
  upstreamPerUser,
  type Wave,
} from './measure.js';
import { table } from './report.js';
import { startLoadStack } from './stack.js';
import { summarize } from './stats.js';
import { STEPS } from './user-flow.js';

const WARM_UP_USERS = 20;
/** Expiry as the sandbox sees it: the 30-minute session, then its 24-hour retention, and a minute. */
const EXPIRE_ALL_MS = (30 + 24 * 60 + 1) * 60_000;
/** express-session lifetime in soak mode: longer than one user's flow, short enough to wait out. */
const SOAK_SESSION_MAX_AGE_MS = 45_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function errorList(errors: Map<string, number>) {
  return [...errors].sort((a, b) => b[1] - a[1]).map(([message, users]) => ({ message, users }));
}

function printSteps(wave: Wave) {
  const steps = stepSummaries(wave.timings);
  console.log(
    table(
      ['step (ms)', 'count', 'p50', 'p99', 'max'],
      STEPS.map((step) => [step, steps[step].count, steps[step].p50, steps[step].p99, steps[step].max]),
    ),
  );
  return steps;
}

function printMemory(rows: [string, MemorySnapshot][]) {
  console.log(
    table(
      ['memory (MB, after GC)', 'kit rss', 'kit heap', 'kit sessions', 'sandbox rss', 'sandbox heap'],
      rows.map(([label, m]) => [
        label,
        m.kit.rssMB,
        m.kit.heapUsedMB,
        m.kit.sessions,
        m.sandbox.rssMB,
        m.sandbox.heapUsedMB,
      ]),
    ),
  );
}

/** `pnpm load` (one run of N users) and `pnpm load --soak-seconds S` (waves, then expiry). */
export async function runLoad(args: LoadArgs, deadline: number) {
  const soak = args.soakSeconds > 0;
  const stack = await startLoadStack({
    reviewDelayMs: args.reviewDelayMs,
    webhooks: args.webhooks,
    sessionMaxAgeMs: soak ? SOAK_SESSION_MAX_AGE_MS : 30 * 60_000,
    concurrency: args.concurrency,
    proxy: {},
  });
  try {
    const memory: [string, MemorySnapshot][] = [['started', await snapshot(stack)]];
    const warmUp = await runWave(stack, WARM_UP_USERS, WARM_UP_USERS, deadline);
    if (warmUp.ok !== WARM_UP_USERS) {
      throw new Error(`warm-up failed: ${JSON.stringify(errorList(warmUp.errors).slice(0, 3))}`);
    }
    const expireAll = async () => {
      const advanced = await stack.sandbox.advanceClock(EXPIRE_ALL_MS);
      if (advanced.status !== 200) throw new Error(`clock/advance answered ${advanced.status}`);
      await sleep(SOAK_SESSION_MAX_AGE_MS + 1000);
    };
    if (soak) await expireAll();
    memory.push([soak ? 'baseline (warm, expired)' : 'before (warm)', await snapshot(stack)]);
    stack.proxy.resetStats();

    const waves: Wave[] = [];
    const series: Record<string, number>[] = [];
    const soakEnd = Date.now() + args.soakSeconds * 1000;
    const started = performance.now();
    do {
      const wave = await runWave(stack, args.users, args.concurrency, deadline);
      waves.push(wave);
      if (soak) {
        const m = await snapshot(stack);
        series.push({
          wave: waves.length,
          elapsedSeconds: Math.round((performance.now() - started) / 100) / 10,
          users: wave.users,
          errors: wave.users - wave.ok,
          kitHeapMB: m.kit.heapUsedMB,
          kitRssMB: m.kit.rssMB,
          kitSessions: m.kit.sessions,
          sandboxHeapMB: m.sandbox.heapUsedMB,
          sandboxRssMB: m.sandbox.rssMB,
        });
        console.log(
          `wave ${waves.length}: ${wave.ok}/${wave.users} ok, kit heap ${m.kit.heapUsedMB} MB, sandbox heap ${m.sandbox.heapUsedMB} MB`,
        );
      }
    } while (soak && Date.now() < soakEnd && Date.now() < deadline);
    const wallMs = performance.now() - started;

    const all: Wave = {
      users: waves.reduce((n, w) => n + w.users, 0),
      ok: waves.reduce((n, w) => n + w.ok, 0),
      wallMs,
      errors: new Map(),
      timings: Object.fromEntries(
        STEPS.map((s) => [s, waves.flatMap((w) => w.timings[s])]),
      ) as Wave['timings'],
      longPolls: waves.reduce((n, w) => n + w.longPolls, 0),
      falseGrants: waves.reduce((n, w) => n + w.falseGrants, 0),
    };
    for (const wave of waves)
      for (const [m, n] of wave.errors) all.errors.set(m, (all.errors.get(m) ?? 0) + n);
    const upstream = upstreamPerUser(stack, all.users);
    const deliveries = (await stack.sandbox.webhookDeliveries()).json?.deliveries ?? [];
    const webhooks = {
      attemptsLogged: deliveries.length,
      failed: deliveries.filter((d) => !d.ok).length,
      durationMs: summarize(deliveries.map((d) => d.durationMs)),
    };
    memory.push([soak ? 'peak (after the last wave)' : 'after', await snapshot(stack)]);
    if (soak) {
      await expireAll();
      memory.push(['after expiry', await snapshot(stack)]);
    }
    const failures = await processFailures(stack);
    const kitAlive = stack.kit.exited === undefined && stack.sandboxProcess.exited === undefined;

    console.log(
      `\n${soak ? `soak: ${waves.length} waves of ${args.users} users in ${(wallMs / 1000).toFixed(1)} s` : `load: ${all.users} users`}, concurrency ${args.concurrency}, review delay ${args.reviewDelayMs} ms, webhooks ${args.webhooks ? 'on' : 'off'}`,
    );
    console.log(
      `errors: ${all.users - all.ok} of ${all.users} users   false grants: ${all.falseGrants}   ` +
        `throughput: ${((all.users / wallMs) * 1000).toFixed(1)} users/s   wall: ${(wallMs / 1000).toFixed(1)} s`,
    );
    for (const { message, users } of errorList(all.errors).slice(0, 10))
      console.log(`  ${users} x ${message}`);
    const steps = printSteps(all);
    console.log(
      `\nupstream calls per user (kit -> sandbox, counted by the proxy): ${upstream.total} ` +
        `(create ${upstream.create}, read ${upstream.read}, other ${upstream.other}); ` +
        `long-polls per user: ${(all.longPolls / all.users).toFixed(2)}\n`,
    );
    if (args.webhooks) {
      console.log(
        `webhooks (latest ${webhooks.attemptsLogged} attempts): ${webhooks.failed} failed, ` +
          `kit answered in p50 ${webhooks.durationMs.p50} ms, p99 ${webhooks.durationMs.p99} ms\n`,
      );
    }
    printMemory(memory);
    console.log(
      `\nkit: ${failures.kitUnhandledRejections} unhandled rejections, ${failures.kitUncaughtExceptions} uncaught exceptions; ` +
        `sandbox: ${failures.sandboxUnhandledRejections}, ${failures.sandboxUncaughtExceptions}; processes alive: ${kitAlive}`,
    );

    const byLabel = Object.fromEntries(memory);
    return {
      mode: soak ? 'soak' : 'load',
      figures: {
        config: {
          users: args.users,
          concurrency: args.concurrency,
          reviewDelayMs: args.reviewDelayMs,
          webhooks: args.webhooks,
          soakSeconds: args.soakSeconds,
          node: process.version,
          cpus: availableParallelism(),
          loadAverage1m: Math.round(loadavg()[0]! * 10) / 10,
        },
        ranAt: new Date().toISOString(),
        users: all.users,
        waves: waves.length,
        wallSeconds: Math.round(wallMs / 100) / 10,
        usersPerSecond: Math.round((all.users / wallMs) * 10_000) / 10,
        errors: all.users - all.ok,
        errorMessages: errorList(all.errors).slice(0, 20),
        falseGrants: all.falseGrants,
        stepsMs: steps,
        upstreamCallsPerUser: upstream,
        longPollsPerUser: Math.round((all.longPolls / all.users) * 100) / 100,
        ...(args.webhooks ? { webhookDeliveries: webhooks } : {}),
        memory: byLabel,
        ...(soak ? { series } : {}),
        processFailures: failures,
        processesAlive: kitAlive,
      },
      ok:
        all.ok === all.users &&
        all.falseGrants === 0 &&
        kitAlive &&
        (!args.webhooks || webhooks.failed === 0),
    };
  } finally {
    await stack.close();
  }
}

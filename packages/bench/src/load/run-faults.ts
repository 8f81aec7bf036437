import type { LoadArgs } from './args.js';
import { FAULT_KINDS, type FaultRates } from './fault-proxy.js';
import { APPROVED_SCENARIOS, type FaultUserResult, runFaultUser } from './fault-user.js';
import { processFailures } from './measure.js';
import { seededRandom } from './random.js';
import { table } from './report.js';
import { startLoadStack } from './stack.js';
import { runPool } from './stats.js';

/** About half of all upstream calls misbehave; the kit retries reads, so many users still pass. */
export const FAULT_PROFILE: { rates: FaultRates; delayMs: [number, number]; kitTimeoutMs: number } = {
  rates: { drop: 0.06, delay: 0.08, reset: 0.06, server_error: 0.08, wrong_json: 0.08, unknown_status: 0.12 },
  delayMs: [100, 1500],
  kitTimeoutMs: 1000,
};

/** `pnpm load --faults`: the fault proxy between kit and sandbox, scenario users, false grants. */
export async function runFaults(args: LoadArgs, deadline: number) {
  const random = seededRandom(args.seed);
  const stack = await startLoadStack({
    reviewDelayMs: Math.min(args.reviewDelayMs, 200),
    webhooks: args.webhooks,
    sessionMaxAgeMs: 30 * 60_000,
    concurrency: args.concurrency,
    proxy: { rates: FAULT_PROFILE.rates, delayMs: FAULT_PROFILE.delayMs, random },
    kit: { timeoutMs: FAULT_PROFILE.kitTimeoutMs, pollIntervalMs: 500 },
  });
  try {
    const results: FaultUserResult[] = [];
    const started = performance.now();
    await runPool(args.users, args.concurrency, async (index) => {
      results.push(
        await runFaultUser(index, {
          kitUrl: stack.kit.info.url,
          kitDispatcher: stack.kitDispatcher,
          sandbox: stack.sandbox,
          judge: stack.judge,
          rounds: 5,
          gatedPerRound: 2,
          maxCreateAttempts: 25,
          deadline,
          random,
        }),
      );
    });
    const wallMs = performance.now() - started;

    // The kit still answers after all of it.
    const probe = await fetch(`${stack.kit.info.url}/identity/status`);
    const kitAnswers = probe.status === 404;
    const failures = await processFailures(stack);
    const proxy = stack.proxy.stats();

    const answers: Record<string, number> = {};
    for (const r of results)
      for (const [k, n] of Object.entries(r.answers)) answers[k] = (answers[k] ?? 0) + n;
    const sum = (f: (r: FaultUserResult) => number) => results.reduce((n, r) => n + f(r), 0);
    const gated = sum((r) => r.gated);
    const falseGrants = sum((r) => r.falseGrants);
    const violations = results.flatMap((r) => r.violations);
    const errors = results.flatMap((r) => r.errors);
    const noAnswer = results.flatMap((r) => r.noAnswer);
    const approvedUsers = results.filter((r) => APPROVED_SCENARIOS.includes(r.scenario));
    const approvedPassed = approvedUsers.filter((r) => r.granted > 0).length;

    console.log(
      `\nfaults: ${args.users} users, ${gated} gated requests in ${(wallMs / 1000).toFixed(1)} s, ` +
        `${proxy.requests} upstream calls through the fault proxy`,
    );
    console.log(
      table(
        ['fault proxy outcome', 'calls'],
        [...FAULT_KINDS, 'pass' as const].map((o) => [o, proxy.byOutcome[o]]),
      ),
    );
    console.log();
    console.log(
      table(
        ['gate answer', 'count'],
        Object.entries(answers).sort((a, b) => b[1] - a[1]),
      ),
    );
    console.log(
      `\nFALSE GRANTS: ${falseGrants} of ${gated} gated requests (each 200 checked against the sandbox directly)\n` +
        `contract violations (non-200 not 303/403/503 typed): ${violations.length}\n` +
        `approved users who got through: ${approvedPassed} of ${approvedUsers.length}\n` +
        `stale-cookie 404s on /status (request raced the session id regeneration): ${sum((r) => r.staleCookie)}\n` +
        `requests to the kit with no HTTP answer (connection refused/reset/timed out): ${noAnswer.length}\n` +
        `proxy could not forward: ${proxy.upstreamErrors}; harness errors: ${errors.length}\n` +
        `kit: ${failures.kitUnhandledRejections} unhandled rejections, ${failures.kitUncaughtExceptions} uncaught exceptions, ` +
        `still answers: ${kitAnswers}`,
    );
    for (const v of [...new Set(violations)].slice(0, 10)) console.log(`  violation: ${v}`);
    for (const e of [...new Set(errors)].slice(0, 10)) console.log(`  error: ${e}`);
    for (const e of [...new Set(noAnswer)].slice(0, 10)) console.log(`  no answer: ${e}`);

    return {
      mode: 'faults',
      figures: {
        config: {
          users: args.users,
          concurrency: args.concurrency,
          seed: args.seed,
          rates: FAULT_PROFILE.rates,
          delayMs: { min: FAULT_PROFILE.delayMs[0], max: FAULT_PROFILE.delayMs[1] },
          kitTimeoutMs: FAULT_PROFILE.kitTimeoutMs,
          node: process.version,
        },
        ranAt: new Date().toISOString(),
        wallSeconds: Math.round(wallMs / 100) / 10,
        gatedRequests: gated,
        falseGrants,
        judgedGrants: stack.judge.checks,
        contractViolations: violations.length,
        approvedUsersPassed: approvedPassed,
        approvedUsers: approvedUsers.length,
        staleCookie404s: sum((r) => r.staleCookie),
        harnessErrors: errors.length,
        noAnswer: noAnswer.length,
        proxyForwardErrors: proxy.upstreamErrors,
        gateAnswers: answers,
        proxyOutcomes: proxy.byOutcome,
        upstreamCalls: proxy.requests,
        processFailures: failures,
        kitStillAnswers: kitAnswers,
      },
      ok:
        falseGrants === 0 &&
        violations.length === 0 &&
        kitAnswers &&
        failures.kitUnhandledRejections === 0 &&
        failures.kitUncaughtExceptions === 0,
    };
  } finally {
    await stack.close();
  }
}

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { haproxyConfig } from '../src/chaos/haproxy.js';
import { runChaos } from '../src/chaos/run-chaos.js';

/*
 * `pnpm chaos`, small: 30 people through a real HAProxy to three instances on one real Redis, the
 * standalone sandbox dropping 30 % of its webhooks, one instance killed (SIGKILL) while long-polls are
 * open and started again, redis-server restarted; the creation limits on and shared through Redis,
 * each person coming from its own address. Correctness only (no timing is asserted): every
 * approved person reaches the gated page, nobody else does, onStatusChange APPROVED is told for
 * every one of them, once (one event id each across the instances: a redelivery after a kill
 * carries the same id; the run waits up to a claim's time for an approval still being told), and the
 * widget has nothing to show. Needs redis-server and haproxy (.ci/run installs both).
 */
describe('chaos, small: three instances behind HAProxy on one Redis', () => {
  it('every approved person gets through, nobody else, one APPROVED event each, no error shown', async () => {
    const lines: string[] = [];
    const figures = await runChaos({
      people: 30,
      rejectEvery: 5,
      arrivalEveryMs: 400,
      reviewDelayMs: 1000,
      drainMs: 2000,
      shutdown: 'drain',
      dropWebhooks: 0.3,
      faults: { kill: true, redisRestart: true, rollingRestart: false },
      deadline: Date.now() + 150_000,
      fromSource: true,
      log: (line) => lines.push(line),
    });
    const summary = JSON.stringify({ ...figures, faults: undefined }, null, 1);
    expect(figures.approved, summary).toBe(24);
    expect(figures.approvedReachedGate, summary).toBe(figures.approved);
    expect(figures.falseGrants, summary).toBe(0);
    // All 24 told, none missing, none as two events (issue 40, finding 7: 1 of 160 went untold).
    expect(figures.approvedEvents, summary).toMatchObject({ exactlyOnce: 24, duplicated: 0, missed: 0 });
    // Nothing shown, the Redis restart included: the kit's Redis clients wait for it up to 2 s
    // (redis-restart.test.ts proves the wait on its own). Under the whole suite's load on 2 cores the
    // restart can outlast that wait, and a creation then fails closed (503 BINDING_STORE_UNAVAILABLE)
    // as designed; the person, as the widget (one policy: @verify-kit/widget/retry-policy), asks
    // again after 1, 2 and 4 s, and shows nothing.
    expect(figures.visibleErrorsByFault, summary).toEqual({});
    const duringRedis = figures.faults.find((fault) => fault.name === 'redis-server restarted');
    expect(
      Object.values(duringRedis?.answered ?? {}).reduce((a, b) => a + b, 0),
      summary,
    ).toBeGreaterThan(0);
    expect(figures.gaveUp, summary).toEqual({});
    // The creation limits were on, in Redis, and counted each person's own address (forwarded by
    // HAProxy); a creation made while Redis restarted was counted in its instance's memory instead.
    expect(figures.limits.addressesCountedInRedis, summary).toBeGreaterThan(20);
    // Both faults happened: the killed instance's readiness route did not answer.
    expect(figures.faults.map((fault) => fault.name)).toEqual([
      'kill -9 app2 mid long-poll, restarted 2 s later',
      'redis-server restarted',
    ]);
    expect(figures.faults[0]?.health?.app2).toContain('unreachable');
  }, 200_000);
});

it('the sample haproxy.cfg of the express README is the configuration the chaos run writes', () => {
  const readme = readFileSync(new URL('../../express/README.md', import.meta.url), 'utf8');
  const sample = haproxyConfig({
    port: 8080,
    statsPort: 8404,
    servers: [
      { name: 'app1', port: 3001 },
      { name: 'app2', port: 3002 },
      { name: 'app3', port: 3003 },
    ],
  });
  expect(readme).toContain(`\`\`\`\n${sample}\`\`\``);
});

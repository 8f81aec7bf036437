import { startSandbox } from '@verify-kit/sandbox';
import {
  Browser,
  expectKeyNeverLeaked,
  FAULT_KINDS,
  seededRandom,
  startFaultProxy,
} from '@verify-kit/testkit';
import { describe, expect, it } from 'vitest';
import { startApp } from './support/app.js';
import { APPROVED_SCENARIOS, GrantJudge, runFaultUser } from './support/fault-user.js';
import { collectUnhandled } from './support/fixtures.js';

// The fault matrix (fault-matrix.test.ts) takes one fault at a time; here 40 people go through the
// whole flow while about half of all upstream calls misbehave at random (seeded), and each 200 of
// the gate is judged against the sandbox itself.
const RATES = {
  drop: 0.06,
  delay: 0.08,
  reset: 0.06,
  server_error: 0.08,
  wrong_json: 0.08,
  unknown_status: 0.12,
};
const unhandled = collectUnhandled();

describe('the gate under a misbehaving upstream', () => {
  it('grants only identifications the sandbox approved: 40 users, hundreds of gated requests, 0 false grants', async () => {
    const random = seededRandom(20240601);
    const apiKey = 'sk_test_false_grants_0123456789';
    const sandbox = await startSandbox({ apiKey, reviewDelayMs: 20 });
    const proxy = await startFaultProxy({
      target: sandbox.url,
      rates: RATES,
      delayMs: [100, 1000],
      random,
    });
    // 40 people from 127.0.0.1 polling every 200 ms: the per-address creation limit and the read
    // budget (read-budget.test.ts) would refuse the run itself.
    const app = await startApp({
      baseUrl: proxy.url,
      apiKey,
      sessionLimit: false,
      upstreamReadsPerSecond: 10_000,
      readLimit: { perClient: 10_000, perIp: 1_000_000 },
      timeoutMs: 700,
      retries: 2,
      pollIntervalMs: 200,
    });
    const judge = new GrantJudge(sandbox);
    try {
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, index) =>
          runFaultUser(index, {
            browser: new Browser(app.url),
            sandbox,
            judge,
            rounds: 5,
            gatedPerRound: 2,
            maxCreateAttempts: 25,
            deadline: Date.now() + 50_000,
            random,
          }),
        ),
      );

      // The kit still answers, with the contract's error for a browser session without verification.
      const probe = await new Browser(app.url).get('/identity/status');
      expect(probe.status).toBe(404);
      expect(probe.json).toMatchObject({ error: { code: 'NO_VERIFICATION_SESSION' } });

      const gated = results.reduce((sum, r) => sum + r.gated, 0);
      expect(results.flatMap((r) => r.errors)).toEqual([]);
      expect(gated).toBeGreaterThanOrEqual(300);
      // Every kind of fault really happened during the run.
      for (const kind of FAULT_KINDS) expect(proxy.stats().byOutcome[kind], kind).toBeGreaterThan(0);

      expect(results.reduce((sum, r) => sum + r.falseGrants, 0)).toBe(0);
      expect(judge.falseGrants).toBe(0);
      expect(results.flatMap((r) => r.violations)).toEqual([]);
      expect(results.flatMap((r) => r.noAnswer)).toEqual([]);
      expect(unhandled).toEqual([]);

      // Not a gate that is simply always shut: each user the sandbox approved got through.
      const approved = results.filter((r) => APPROVED_SCENARIOS.includes(r.scenario));
      expect(approved.length).toBeGreaterThan(10);
      for (const user of approved) {
        expect(user.granted, `${user.scenario}: ${JSON.stringify(user.answers)}`).toBeGreaterThan(0);
      }
      for (const user of results.filter((r) => !APPROVED_SCENARIOS.includes(r.scenario))) {
        expect(user.granted, user.scenario).toBe(0);
      }
    } finally {
      await app.close();
      await proxy.close();
      await sandbox.close();
    }
    // The key never reached a response or a log line.
    expectKeyNeverLeaked(apiKey);
  }, 90_000);
});

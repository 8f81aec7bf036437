import { Pool } from 'undici';
import type { Memory } from '../servers/rpc.js';
import { startStack } from '../servers/stack.js';
import { sleep } from '../support/stats.js';
import type { Bench } from './bench.js';

const SESSIONS = 10_000;
const WARMUP_SESSIONS = 1000;
const CONCURRENCY = 32;
/** The app's session cookie lifetime here: short, so the sessions expire for real in the store. */
const COOKIE_MAX_AGE_MS = 2000;
const RETENTION_MS = 60_000;
/** Past the sessions' 30 minutes and the sandbox's retention of their identifications. */
const ADVANCE_MS = 30 * 60_000 + RETENTION_MS + 5000;

const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

function rssFigure(before: Memory, created: Memory, expired: Memory) {
  return {
    before: mb(before.rssBytes),
    afterCreate: mb(created.rssBytes),
    afterExpiry: mb(expired.rssBytes),
  };
}

const heap = (m: Memory) => mb(m.heapUsedBytes);

/**
 * RSS of the kit's process and of the sandbox's process before, after 10,000 sessions created through
 * the kit, and after they expired (session cookies by real time; the sandbox and kit clocks moved
 * forward past expiry and retention, which makes the sandbox evict). Readings after a full GC.
 */
export const memoryBench: Bench = {
  timeoutMs: 150_000,
  async run({ log }) {
    const stack = await startStack({
      reviewDelayMs: 0,
      cookieMaxAgeMs: COOKIE_MAX_AGE_MS,
      retentionMs: RETENTION_MS,
    });
    const pool = new Pool(stack.appUrl, { connections: CONCURRENCY });
    try {
      const reading = async () => ({
        kit: await stack.app.call('memory'),
        sandbox: await stack.sandbox.call('memory'),
      });
      const create = async (count: number) => {
        let next = 0;
        let failed = 0;
        await Promise.all(
          Array.from({ length: CONCURRENCY }, async () => {
            while (next < count) {
              next++;
              const answer = await pool.request({
                path: '/identity/session',
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: '{}',
              });
              await answer.body.text();
              if (answer.statusCode !== 201) failed++;
            }
          }),
        );
        if (failed > 0) throw new Error(`${failed} of ${count} session creations failed`);
      };
      const expireAll = async () => {
        await sleep(COOKIE_MAX_AGE_MS + 500);
        const left = await stack.app.call('pruneSessions');
        await stack.app.call('advanceKitClock', ADVANCE_MS);
        await stack.sandbox.call('advanceClock', ADVANCE_MS);
        return left;
      };
      // Warm-up: compiled code and pools count in RSS too; "before" is a warmed-up, empty process.
      await create(WARMUP_SESSIONS);
      await expireAll();
      const before = await reading();
      const started = performance.now();
      await create(SESSIONS);
      const createSec = (performance.now() - started) / 1000;
      log(`  ${SESSIONS} sessions in ${createSec.toFixed(1)} s`);
      const created = await reading();
      const sessionsLeft = await expireAll();
      const expired = await reading();
      return {
        figures: {
          'memory.kit.rssMB': rssFigure(before.kit, created.kit, expired.kit),
          'memory.sandbox.rssMB': rssFigure(before.sandbox, created.sandbox, expired.sandbox),
        },
        details: {
          sessions: SESSIONS,
          warmupSessions: WARMUP_SESSIONS,
          createSeconds: Math.round(createSec * 10) / 10,
          sessionsLeftInStore: sessionsLeft,
          afterGc: before.kit.afterGc && before.sandbox.afterGc,
          heapUsedMB: {
            kit: { before: heap(before.kit), afterCreate: heap(created.kit), afterExpiry: heap(expired.kit) },
            sandbox: {
              before: heap(before.sandbox),
              afterCreate: heap(created.sandbox),
              afterExpiry: heap(expired.sandbox),
            },
          },
        },
      };
    } finally {
      await pool.close();
      await stack.stop();
    }
  },
};

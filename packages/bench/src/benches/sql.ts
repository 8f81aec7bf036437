import { startPostgresServer } from '@verify-kit/testkit';
import { startChild } from '../harness/child.js';
import type { SqlAppCommands } from '../harness/sql-app-process.js';
import { withSandbox } from '../harness/stack.js';
import { compareRatios, creationAt, type LoadSettings, type Target } from '../harness/throughput.js';
import { approvedUsers } from '../harness/users.js';
import { VISIT_LOAD } from '../harness/visit-vs-plain.js';
import type { Bench } from './bench.js';

const CREATE_LOAD: LoadSettings = { connections: 10, durationSec: 1, rounds: 8, warmupSec: 1 };
const USERS = 50;

/**
 * The kit's state in PostgreSQL (issue 39: sqlStore over pg's Pool, on a PostgreSQL the run starts,
 * Debian's): core's Fetch door on Node. Its gate inside a visit for 50 signed-in accounts (the
 * store's use: one query a gated request, the decision) against a plain route of the same server,
 * and, beside it, for 50 anonymous visitors (whose bindings the store holds too: two queries);
 * its session creations (one write each) against the same app's with the memory store.
 */
export const bench: Bench = {
  timeoutMs: 180_000,
  async run({ log }) {
    const postgres = await startPostgresServer();
    const app = startChild<SqlAppCommands>(new URL('../harness/sql-app-process.ts', import.meta.url));
    try {
      return await withSandbox(async (sandbox) => {
        const { sqlUrl, memoryUrl } = await app.call('start', {
          config: { upstreamUrl: sandbox.url, apiKey: sandbox.apiKey },
          postgresUrl: postgres.url,
        });
        const stack = { appUrl: sqlUrl, sandboxUrl: sandbox.url, apiKey: sandbox.apiKey };
        const accounts = await approvedUsers(stack, USERS, { signIn: true, visitOnly: true });
        const visitors = await approvedUsers(stack, USERS, { visitOnly: true });
        const at = (name: string, path: string, people: { cookie: string }[]): Target => ({
          name,
          url: `${sqlUrl}${path}`,
          headers: { accept: 'application/json' },
          cookies: people.map((person) => person.cookie),
        });
        const visit = await compareRatios(
          [
            at('plain', '/plain', accounts),
            at('visit', '/visit', accounts),
            at('anonymous', '/visit', visitors),
          ],
          VISIT_LOAD,
          { visitVsPlain: ['visit', 'plain'], anonymousVisitVsPlain: ['anonymous', 'plain'] },
          () => app.call('cpuMicros'),
        );
        const create = await compareRatios(
          [creationAt('memory', memoryUrl), creationAt('sql', sqlUrl)],
          CREATE_LOAD,
          { createVsMemory: ['sql', 'memory'] },
        );
        const { visitVsPlain, anonymousVisitVsPlain } = visit.ratios;
        const { createVsMemory } = create.ratios;
        log(
          `  sql store (PostgreSQL): visit/plain ${visitVsPlain} (anonymous ${anonymousVisitVsPlain}), creation sql/memory ${createVsMemory}`,
        );
        return {
          figures: {
            'sql.gate.visitVsPlain': visitVsPlain,
            'sql.gate.anonymousVisitVsPlain': anonymousVisitVsPlain,
            'sql.createRatioVsMemory': createVsMemory,
          },
          details: { visit: { users: USERS, ...visit.details }, create: create.details },
        };
      });
    } finally {
      await app.stop();
      await postgres.stop();
    }
  },
};

// The published store contract (@verify-kit/core/testing) on sqlStore over a real PostgreSQL
// (Debian's, started by the test), through each PostgreSQL adapter: pg's Pool (ten connections, so
// the concurrent calls really are concurrent; prepared statements), pg's Client (one connection,
// statements unprepared), postgres.js; and the
// store of two instances, each its own pool, deciding one winner between them.
import pg from 'pg';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, pgDriver, postgresJsDriver, sqlStore } from '../src/sql.js';
import { runStoreContract } from '../src/testing.js';
import { poolOn, usePostgres } from './support/postgres.js';

const database = usePostgres();
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

runStoreContract(
  async () => {
    await database.schema('contract_pool');
    const pool = poolOn(database.server, 'contract_pool');
    closers.push(() => pool.end());
    await migrate(pgDriver(pool));
    return sqlStore(pgDriver(pool));
  },
  { name: 'sqlStore on PostgreSQL through pg’s Pool' },
);

runStoreContract(
  async () => {
    await database.schema('contract_client');
    const client = new pg.Client({
      connectionString: database.server.url,
      options: '-c search_path=contract_client',
    });
    client.on('error', () => {}); // the server ending it at the end of the file is not a failure
    await client.connect();
    closers.push(() => client.end());
    await migrate(pgDriver(client));
    // Unprepared, as behind a pooler in transaction mode that keeps no prepared statement.
    return sqlStore(pgDriver(client, { prepare: false }));
  },
  { name: 'sqlStore on PostgreSQL through pg’s Client, statements unprepared' },
);

runStoreContract(
  async () => {
    await database.schema('contract_postgresjs');
    const sql = postgres(database.server.url, {
      max: 10,
      onnotice: () => {},
      connection: { search_path: 'contract_postgresjs' },
    });
    closers.push(() => sql.end());
    await migrate(postgresJsDriver(sql));
    return sqlStore(postgresJsDriver(sql));
  },
  { name: 'sqlStore on PostgreSQL through postgres.js' },
);

describe('two instances, each its own pool, on one database', () => {
  it('exactly one wins each compare-and-set and claim made on both at once; both read the newest decision', async () => {
    await database.schema('contract_instances');
    const [poolA, poolB] = [
      poolOn(database.server, 'contract_instances'),
      poolOn(database.server, 'contract_instances'),
    ];
    closers.push(
      () => poolA.end(),
      () => poolB.end(),
    );
    await Promise.all([migrate(pgDriver(poolA)), migrate(pgDriver(poolB))]);
    const [a, b] = [sqlStore(pgDriver(poolA)), sqlStore(pgDriver(poolB))];
    const on = (i: number) => (i % 2 === 0 ? a : b);
    const record = (i: number) => ({
      status: 'APPROVED',
      observedAt: Date.now(),
      verificationSessionId: `vs_${i}`,
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    const calls = Array.from({ length: 50 }, (_, i) => i);
    const stored = await Promise.all(
      calls.map((i) => on(i).bindings.statusRecords.compareAndSet('ident-1', undefined, record(i))),
    );
    expect(stored.filter(Boolean)).toHaveLength(1);
    const claimed = await Promise.all(calls.map((i) => on(i).replayStore.claim('msg_one', 600)));
    expect(claimed.filter(Boolean)).toHaveLength(1);
    const at = Date.now();
    await Promise.all(
      calls.map((i) =>
        on(i).bindings.decisions.put(
          'ident-1',
          { status: 'APPROVED', at: at + ((i * 37) % 50), source: 'read' },
          60_000,
        ),
      ),
    );
    expect((await a.bindings.decisions.get('ident-1'))?.at).toBe(at + 49);
    expect((await b.bindings.decisions.get('ident-1'))?.at).toBe(at + 49);
  });
});

// The SQL store's schema and its upkeep, on a real PostgreSQL and on SQLite (node:sqlite, Node
// 22.5+): the shipped schema.sql files are what migrate runs; migrate creates the tables once
// however many instances run it at once and says so; a store on missing or newer tables refuses
// with STORE_SCHEMA_MISMATCH naming the fix (never a wrong query), and serves once migrated; prune
// deletes what expired and nothing else; a client where a driver belongs is refused naming the adapters.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { until } from '@verify-kit/testkit';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  migrate,
  pgDriver,
  SCHEMA_VERSION,
  type SqlDriver,
  type SqliteDatabaseLike,
  schemaSql,
  sqliteDriver,
  sqlStore,
} from '../src/sql.js';
import { poolOn, usePostgres } from './support/postgres.js';

const database = usePostgres();
const dir = mkdtempSync(path.join(tmpdir(), 'verify-kit-sql-schema-'));
const pools: pg.Pool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  rmSync(dir, { recursive: true, force: true });
});

const nodeSqlite = (await import(['node', 'sqlite'].join(':')).catch(() => undefined)) as
  | { DatabaseSync: new (file: string) => SqliteDatabaseLike }
  | undefined;

let schemas = 0;
/** A driver on a database of its own, with no table yet. */
const freshDatabases = {
  postgres: async (): Promise<SqlDriver> => {
    const schema = `schema_test_${++schemas}`;
    await database.schema(schema);
    const pool = poolOn(database.server, schema);
    pools.push(pool);
    return pgDriver(pool);
  },
  'sqlite (node:sqlite)': async (): Promise<SqlDriver> =>
    sqliteDriver(new nodeSqlite!.DatabaseSync(path.join(dir, `${++schemas}.db`))),
};

describe('the shipped schema.sql files', () => {
  for (const dialect of ['postgres', 'sqlite'] as const) {
    it(`sql/${dialect}/schema.sql is what migrate runs on ${dialect}, and the package ships it`, async () => {
      await expect(schemaSql(dialect)).toMatchFileSnapshot(`../sql/${dialect}/schema.sql`);
      expect(schemaSql(dialect)).toContain(`schema version ${SCHEMA_VERSION}`);
    });
  }
  it('the package’s files list holds them', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(manifest.files).toContain('sql');
  });
});

for (const [name, fresh] of Object.entries(freshDatabases)) {
  const skip = name.includes('node:sqlite') && nodeSqlite === undefined;
  describe.skipIf(skip)(
    `${name}${skip ? ` (skipped on Node ${process.versions.node}, which has no node:sqlite)` : ''}`,
    () => {
      let driver: SqlDriver;
      beforeAll(async () => {
        driver = await fresh();
      });

      it('a store on tables not made yet refuses with STORE_SCHEMA_MISMATCH naming migrate, before any query of its own; once migrated it serves', async () => {
        const store = sqlStore(driver);
        const refusal = {
          code: 'STORE_SCHEMA_MISMATCH',
          message: expect.stringMatching(/run `await migrate\(driver\)`/),
        };
        await expect(store.ready()).rejects.toMatchObject(refusal);
        await expect(store.bindings.bindings.get('ada')).rejects.toMatchObject(refusal);
        await expect(store.replayStore.claim('msg_1', 600)).rejects.toMatchObject(refusal);
        expect(await store.health()).toBe(false);

        expect(await migrate(driver)).toEqual({ from: 0, to: SCHEMA_VERSION });
        await store.ready();
        expect(await store.bindings.bindings.get('ada')).toBeUndefined();
        expect(await store.health()).toBe(true);
      });

      it('migrate again changes nothing; ten at once (ten instances starting) all succeed on a fresh database', async () => {
        expect(await migrate(driver)).toEqual({ from: SCHEMA_VERSION, to: SCHEMA_VERSION });
        const other = await fresh();
        const results = await Promise.all(Array.from({ length: 10 }, () => migrate(other)));
        expect(results.filter((result) => result.from === 0).length).toBeGreaterThanOrEqual(1);
        expect(results.every((result) => result.to === SCHEMA_VERSION)).toBe(true);
        await sqlStore(other).ready();
      });

      it('tables at a newer version than this verify-kit knows: the store and migrate refuse, naming the upgrade, and never lower it', async () => {
        const newer = await fresh();
        await migrate(newer);
        await newer.query('UPDATE verify_kit_schema SET version = 99', []);
        const refusal = {
          code: 'STORE_SCHEMA_MISMATCH',
          message: expect.stringMatching(
            /version 99, newer than this verify-kit knows \(1\): .*upgrade @verify-kit\/core/,
          ),
        };
        await expect(sqlStore(newer).ready()).rejects.toMatchObject(refusal);
        await expect(migrate(newer)).rejects.toMatchObject({ code: 'STORE_SCHEMA_MISMATCH' });
        expect(await newer.query('SELECT version FROM verify_kit_schema', [])).toEqual([{ version: 99 }]);
      });

      it('prune deletes every expired row and no living one, and says how many', async () => {
        const store = sqlStore(driver);
        const longAgo = new Date(Date.now() - 400 * 86_400_000).toISOString();
        const binding = (expiresAt: string) => ({
          verificationSessionId: 'vs_1',
          identificationId: 'id-1',
          deepLink: 'idv://x',
          sessionCode: 'ABCD2345',
          sessionPageLink: 'https://idv.example.com/x',
          expiresAt,
        });
        await store.prune();
        await store.bindings.bindings.set('gone', binding(longAgo));
        await store.bindings.bindings.set('kept', binding(new Date().toISOString()));
        const old = {
          observedAt: Date.now() - 400 * 86_400_000,
          verificationSessionId: 'vs_1',
          expiresAt: longAgo,
        };
        await store.bindings.statusRecords.compareAndSet('gone', undefined, { ...old, status: 'APPROVED' });
        await store.replayStore.claim('msg_kept', 600);
        await store.replayStore.claim('msg_gone', 0.001);
        await store.bindings.decisions.put('kept', { status: 'APPROVED', at: 1, source: 'read' }, 60_000);
        // Expires 1 ms after the claim above (made earlier): once it is gone, so is the claim.
        await store.bindings.decisions.put('gone', { status: 'APPROVED', at: 1, source: 'read' }, 1);
        await until(
          async () => (await store.bindings.decisions.get('gone')) === undefined,
          'the decision expires',
        );
        expect(await store.prune()).toEqual({ bindings: 1, statusRecords: 1, decisions: 1, webhookIds: 1 });
        expect(await store.prune()).toEqual({ bindings: 0, statusRecords: 0, decisions: 0, webhookIds: 0 });
        expect(await store.bindings.bindings.get('kept')).toEqual(binding(expect.any(String)));
        expect(await store.bindings.decisions.get('kept')).toMatchObject({ at: 1 });
        expect(await store.replayStore.claim('msg_kept', 600)).toBe(false);
      });
    },
  );
}

describe('what sqlStore and migrate take', () => {
  it('a client where a driver belongs, or no driver: INVALID_OPTIONS naming the adapters', async () => {
    const pool = new pg.Pool({ connectionString: database.server.url });
    pools.push(pool);
    for (const given of [pool, undefined, { dialect: 'mysql', query() {}, transaction() {} }]) {
      expect(() => sqlStore(given as never)).toThrow(
        expect.objectContaining({
          code: 'INVALID_OPTIONS',
          message: expect.stringMatching(
            /pgDriver\(pool\), postgresJsDriver\(sql\), d1Driver\(env\.DB\) or sqliteDriver\(db\)/,
          ),
        }),
      );
      await expect(migrate(given as never)).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
    }
  });

  it('options it does not know, or a retention out of bounds: INVALID_OPTIONS', async () => {
    const pool = poolOn(database.server, 'public');
    pools.push(pool);
    const driver = pgDriver(pool);
    expect(() => sqlStore(driver, { prefix: 'x' } as never)).toThrow(
      /sqlStore: invalid options: the options are \{ retention \}/,
    );
    expect(() => sqlStore(driver, { retention: { approvedMs: 5 } })).toThrow(
      /retention\.approvedMs: at least one minute/,
    );
  });
});

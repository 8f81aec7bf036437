// The published store contract (@verify-kit/core/testing) on sqlStore over SQLite on disk, through
// sqliteDriver: on node:sqlite (Node 22.5+: CI's run on Node 24; Node 20 has none) and on bun:sqlite
// (the bun binary from npm runs the adapter on its SQLite; the contract, in Node, reaches it over HTTP).
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe } from 'vitest';
// The runtime tests' resolution of the binaries npm installs (Bun's platform package for this machine).
import { bunBinary, resolveBinary } from '../../runtime-tests/test/support/binaries.js';
import { migrate, type SqlDriver, type SqliteDatabaseLike, sqliteDriver, sqlStore } from '../src/sql.js';
import { runStoreContract } from '../src/testing.js';

const dir = mkdtempSync(path.join(tmpdir(), 'verify-kit-sqlite-'));
const closers: (() => unknown)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  rmSync(dir, { recursive: true, force: true });
});

// node:sqlite is not in Node 20 (nor unflagged before 22.13): imported by name at run time.
const nodeSqlite = (await import(['node', 'sqlite'].join(':')).catch(() => undefined)) as
  | { DatabaseSync: new (file: string) => SqliteDatabaseLike & { close(): void } }
  | undefined;

describe.skipIf(nodeSqlite === undefined)(
  `node:sqlite (Node 22.5+; skipped on Node ${process.versions.node}, which has none)`,
  () => {
    runStoreContract(
      async () => {
        const db = new nodeSqlite!.DatabaseSync(path.join(dir, 'node.db'));
        db.exec('PRAGMA journal_mode = WAL');
        closers.push(() => db.close());
        await migrate(sqliteDriver(db));
        return sqlStore(sqliteDriver(db));
      },
      { name: 'sqlStore on SQLite through node:sqlite' },
    );
  },
);

/** A SqlDriver whose every call runs in the Bun process, on bun:sqlite. */
async function bunDriver(file: string): Promise<SqlDriver> {
  const script = new URL('./fixtures/bun-sqlite-driver.mjs', import.meta.url).pathname;
  const child: ChildProcess = spawn(resolveBinary(bunBinary()), [script, file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  closers.push(() => {
    child.kill();
    return child.exitCode === null ? once(child, 'exit') : undefined;
  });
  let output = '';
  for await (const chunk of child.stdout!) {
    output += String(chunk);
    if (output.includes('\n')) break;
  }
  const port = /listening (\d+)/.exec(output)?.[1];
  if (port === undefined) throw new Error(`bun did not start: ${output}`);
  const call = async (body: object) => {
    const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: JSON.stringify(body) });
    const answer = (await res.json()) as { rows: Record<string, unknown>[]; error?: string };
    if (answer.error !== undefined) throw new Error(answer.error);
    return answer.rows;
  };
  return {
    dialect: 'sqlite',
    query: (text, params) => call({ call: 'query', text, params }),
    transaction: async (statements) => void (await call({ call: 'transaction', statements })),
  };
}

runStoreContract(
  async () => {
    const driver = await bunDriver(path.join(dir, 'bun.db'));
    await migrate(driver);
    return sqlStore(driver);
  },
  { name: 'sqlStore on SQLite through bun:sqlite (the adapter runs in Bun)' },
);

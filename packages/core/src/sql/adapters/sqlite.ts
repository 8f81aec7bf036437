import type { SqlDriver, SqlRow } from '../driver.js';

/** A prepared statement of node:sqlite, bun:sqlite or better-sqlite3, as far as the adapter uses it. */
export interface SqliteStatementLike {
  all(...params: never[]): unknown[];
  run(...params: never[]): unknown;
  /** better-sqlite3: false for a statement that returns no rows (its `all` would throw). */
  readonly reader?: boolean;
}

/** What the adapter uses of a synchronous SQLite database (typed by shape: it imports none of them). */
export interface SqliteDatabaseLike {
  prepare(sql: string): SqliteStatementLike;
  exec(sql: string): unknown;
}

/**
 * A `SqlDriver` over a synchronous SQLite database: `new DatabaseSync(file)` of `node:sqlite`
 * (Node 22.5+, Deno), `new Database(file)` of `bun:sqlite` or of `better-sqlite3`. One process
 * writes at a time (SQLite's lock): for several processes on one file, turn on WAL and a
 * `busy_timeout`. Statements are prepared once and kept.
 */
export function sqliteDriver(db: SqliteDatabaseLike): SqlDriver {
  const prepared = new Map<string, SqliteStatementLike>();
  const statement = (text: string) => {
    let found = prepared.get(text);
    if (found === undefined) {
      found = db.prepare(text);
      prepared.set(text, found);
    }
    return found;
  };
  return {
    dialect: 'sqlite',
    async query(text, params) {
      const prepared = statement(text);
      const values = params as never[];
      if (prepared.reader === false) {
        prepared.run(...values);
        return [];
      }
      return prepared.all(...values) as SqlRow[];
    },
    async transaction(statements) {
      db.exec('BEGIN IMMEDIATE');
      try {
        for (const text of statements) db.exec(text);
        db.exec('COMMIT');
      } catch (error) {
        try {
          db.exec('ROLLBACK');
        } catch {
          // Already rolled back by SQLite: the first error is the one to tell.
        }
        throw error;
      }
    },
  };
}

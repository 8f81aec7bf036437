import type { SqlDriver, SqlRow } from '../driver.js';

/** A D1 prepared statement, as far as the adapter uses it. */
export interface D1StatementLike {
  bind(...values: unknown[]): D1StatementLike;
  all(): Promise<{ results?: unknown[] }>;
}

/** What the adapter uses of a Cloudflare D1 binding (`env.DB`), typed by shape. */
export interface D1Like {
  prepare(query: string): D1StatementLike;
  batch(statements: D1StatementLike[]): Promise<unknown>;
}

/**
 * A `SqlDriver` over Cloudflare D1 (`env.DB` in a Worker, or Miniflare's `getD1Database`): SQLite's
 * statements, each over D1's HTTP-free binding; `migrate`'s as one `batch`, which D1 runs as a
 * transaction.
 */
export function d1Driver(db: D1Like): SqlDriver {
  return {
    dialect: 'sqlite',
    async query(text, params) {
      const { results } = await db
        .prepare(text)
        .bind(...params)
        .all();
      return (results ?? []) as SqlRow[];
    },
    async transaction(statements) {
      await db.batch(statements.map((statement) => db.prepare(statement)));
    },
  };
}

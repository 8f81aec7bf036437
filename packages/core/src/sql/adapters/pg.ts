import type { SqlDriver, SqlRow } from '../driver.js';

/**
 * What the adapter uses of node-postgres (`pg`): `query`, which a `Pool`, a `Client` and a pool's
 * client all have. Typed by shape: the adapter imports nothing of `pg`.
 */
export interface PgQueryable {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * A `SqlDriver` over node-postgres: `new Pool(...)` (each call takes a connection of the pool; on
 * serverless, `max: 1`), a connected `Client`, or a pool's client. `migrate` sends its statements as
 * one multi-statement query, which PostgreSQL runs as one transaction.
 */
export function pgDriver(db: PgQueryable): SqlDriver {
  return {
    dialect: 'postgres',
    async query(text, params) {
      const result = await db.query(text, [...params]);
      return result.rows as SqlRow[];
    },
    async transaction(statements) {
      // No parameters: pg sends it as a simple query, several statements in one implicit transaction.
      await db.query(statements.join(';\n'));
    },
  };
}

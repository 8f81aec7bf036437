import type { SqlDriver, SqlRow } from '../driver.js';
import { statementName } from './statement-name.js';

/**
 * What the adapter uses of node-postgres (`pg`): `query`, which a `Pool`, a `Client` and a pool's
 * client all have. Typed by shape: the adapter imports nothing of `pg`.
 */
export interface PgQueryable {
  query(config: { name?: string; text: string; values?: unknown[] }): Promise<{ rows: unknown[] }>;
  query(text: string): Promise<unknown>;
}

export interface PgDriverOptions {
  /**
   * Named prepared statements (each parsed and planned once per connection: about half the cost of
   * a statement, on both sides). Default true; false behind a pooler in transaction mode that keeps
   * no prepared statement (PgBouncer before 1.21 or without `max_prepared_statements`, Supavisor).
   */
  prepare?: boolean;
}

/**
 * A `SqlDriver` over node-postgres: `new Pool(...)` (each call takes a connection of the pool; on
 * serverless, `max: 1`), a connected `Client`, or a pool's client. `migrate` sends its statements as
 * one multi-statement query, which PostgreSQL runs as one transaction.
 */
export function pgDriver(db: PgQueryable, { prepare = true }: PgDriverOptions = {}): SqlDriver {
  return {
    dialect: 'postgres',
    async query(text, params) {
      const values = [...params];
      const result = await db.query(prepare ? { name: statementName(text), text, values } : { text, values });
      return result.rows as SqlRow[];
    },
    async transaction(statements) {
      // No parameters: pg sends it as a simple query, several statements in one implicit transaction.
      await db.query(statements.join(';\n'));
    },
  };
}

import type { SqlDriver, SqlRow } from '../driver.js';

/** What the adapter uses of a postgres.js transaction's `sql`. */
export interface PostgresJsTransactionLike {
  unsafe(query: string): PromiseLike<unknown>;
}

/** What the adapter uses of a postgres.js `sql` (typed by shape: the adapter imports nothing of it). */
export interface PostgresJsLike {
  unsafe(
    query: string,
    parameters?: never[],
    options?: { prepare?: boolean },
  ): PromiseLike<readonly unknown[]>;
  begin(callback: (sql: PostgresJsTransactionLike) => Promise<unknown>): Promise<unknown>;
  readonly options?: { readonly prepare?: boolean };
}

export interface PostgresJsDriverOptions {
  /**
   * Prepared statements (each parsed and planned once per connection). Default: what `sql` was
   * made with (`postgres(url, { prepare: false })` behind a pooler in transaction mode), else true.
   */
  prepare?: boolean;
}

/**
 * A `SqlDriver` over postgres.js: `postgres(url)` (its own pool; on serverless, `max: 1`). Each
 * statement is sent with `sql.unsafe(text, params)`; `migrate`'s run in one `sql.begin`.
 */
export function postgresJsDriver(sql: PostgresJsLike, options: PostgresJsDriverOptions = {}): SqlDriver {
  const prepare = options.prepare ?? sql.options?.prepare ?? true;
  return {
    dialect: 'postgres',
    async query(text, params) {
      return (await sql.unsafe(text, [...params] as never[], { prepare })) as SqlRow[];
    },
    async transaction(statements) {
      await sql.begin(async (tx) => {
        for (const statement of statements) await tx.unsafe(statement);
      });
    },
  };
}

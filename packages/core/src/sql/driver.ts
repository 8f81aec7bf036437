/** The SQL dialects verify-kit's statements are written in: one set of statements each. */
export type SqlDialect = 'postgres' | 'sqlite';

/** What a statement is given: text, whole numbers (epoch ms), or null. */
export type SqlValue = string | number | null;

/** A row as the driver answers it, by column name. */
export type SqlRow = Record<string, unknown>;

/**
 * What `sqlStore` and `migrate` need of a database: its dialect and two methods over your own
 * client. The adapters (`pgDriver`, `postgresJsDriver`, `d1Driver`, `sqliteDriver`) make one of pg,
 * postgres.js, Cloudflare D1 and SQLite (node:sqlite, bun:sqlite, better-sqlite3); any other client
 * of either dialect (an HTTP driver, a pool of your own) takes a few lines.
 */
export interface SqlDriver {
  readonly dialect: SqlDialect;
  /**
   * Runs one statement with its positional parameters (`$1`, `$2`… in postgres; `?` in sqlite, in
   * order) and resolves the rows it returns (none for a statement that returns none).
   */
  query(text: string, params: readonly SqlValue[]): Promise<readonly SqlRow[]>;
  /** Runs statements without parameters in one transaction, all or none (what `migrate` needs). */
  transaction(statements: readonly string[]): Promise<void>;
}

const DIALECTS: readonly string[] = ['postgres', 'sqlite'] satisfies SqlDialect[];

/** true when `value` has a SqlDriver's shape (checked once, where a store or migrate is given one). */
export function isSqlDriver(value: unknown): value is SqlDriver {
  if (typeof value !== 'object' || value === null) return false;
  const driver = value as Partial<Record<keyof SqlDriver, unknown>>;
  return (
    typeof driver.dialect === 'string' &&
    DIALECTS.includes(driver.dialect) &&
    typeof driver.query === 'function' &&
    typeof driver.transaction === 'function'
  );
}

/** What to write instead, when `value` is a client rather than a driver. */
export const DRIVER_HINT =
  'wrap your client in its adapter from @verify-kit/core/sql: pgDriver(pool), postgresJsDriver(sql), d1Driver(env.DB) or sqliteDriver(db), or pass { dialect, query, transaction } of your own';

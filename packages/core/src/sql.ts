// @verify-kit/core/sql: verify-kit's state in your own database (PostgreSQL, SQLite, Cloudflare D1)
// through a small driver over your client. Runtime-neutral, as the main entry: the adapters are
// typed by shape and import none of the drivers.

export type { D1Like, D1StatementLike } from './sql/adapters/d1.js';
export { d1Driver } from './sql/adapters/d1.js';
export type { PgDriverOptions, PgQueryable } from './sql/adapters/pg.js';
export { pgDriver } from './sql/adapters/pg.js';
export type {
  PostgresJsDriverOptions,
  PostgresJsLike,
  PostgresJsTransactionLike,
} from './sql/adapters/postgres-js.js';
export { postgresJsDriver } from './sql/adapters/postgres-js.js';
export type { SqliteDatabaseLike, SqliteStatementLike } from './sql/adapters/sqlite.js';
export { sqliteDriver } from './sql/adapters/sqlite.js';
export type { SqlDialect, SqlDriver, SqlRow, SqlValue } from './sql/driver.js';
export type { MigrateResult } from './sql/schema.js';
export { migrate, SCHEMA_VERSION, schemaSql } from './sql/schema.js';
export type { PruneResult } from './sql/sql-records.js';
export type { SqlStore, SqlStoreOptions } from './sql/sql-store.js';
export { sqlStore } from './sql/sql-store.js';

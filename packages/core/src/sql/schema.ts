import { VerifyKitError } from '@verify-kit/client/fetch';
import { ERROR_CODE } from '../shared/errors.js';
import type { Dialect } from './dialect.js';
import { DRIVER_HINT, isSqlDriver, type SqlDialect, type SqlDriver } from './driver.js';
import { postgres } from './postgres.js';
import { sqlite } from './sqlite.js';

export const DIALECTS: Readonly<Record<SqlDialect, Dialect>> = { postgres, sqlite };

/** The schema version this verify-kit reads and writes: `migrate` brings the tables to it. */
export const SCHEMA_VERSION = Math.max(...postgres.migrations.map((migration) => migration.version));

/** What `migrate` did: the version it found (0: no tables) and the one the tables are at now. */
export interface MigrateResult {
  from: number;
  to: number;
}

/** The driver, checked: an INVALID_OPTIONS error naming the adapters otherwise. */
export function checkedDriver(where: string, driver: unknown): SqlDriver {
  if (isSqlDriver(driver)) return driver;
  throw new VerifyKitError(
    ERROR_CODE.INVALID_OPTIONS,
    `${where}: the driver must be a SqlDriver: ${DRIVER_HINT}`,
  );
}

/**
 * The tables' schema version in this database, or 0 when verify-kit's tables are not there. A
 * failure of the database itself (down, refused) rejects as it came.
 */
export async function schemaVersionOf(driver: SqlDriver): Promise<number> {
  const dialect = DIALECTS[driver.dialect];
  let rows: readonly Record<string, unknown>[];
  try {
    rows = await driver.query(dialect.readVersion, []);
  } catch (error) {
    // The read fails both when the table is missing and when the database does: ask which.
    const [present] = await driver.query(dialect.schemaPresent, []).catch(() => {
      throw error;
    });
    if (present === undefined) throw error;
    if (!truthy(present.present)) return 0;
    // Made in between (a migration of another instance committed): read it now.
    rows = await driver.query(dialect.readVersion, []);
  }
  const version = Number(rows[0]?.version ?? 0);
  return Number.isSafeInteger(version) ? version : 0;
}

const truthy = (value: unknown) => value === true || value === 't' || Number(value) > 0;

/** The statements of every migration after `from`, then the version's record: one transaction. */
export function migrationStatements(dialect: Dialect, from: number): string[] {
  return [
    ...dialect.migrationLock,
    ...dialect.migrations.filter((migration) => migration.version > from).flatMap((m) => m.statements),
    dialect.recordVersion(SCHEMA_VERSION),
  ];
}

/**
 * Creates verify-kit's tables, or upgrades them to this version's schema, in one transaction, and
 * records the version (`verify_kit_schema`). Idempotent, and safe to run from several instances at
 * once: run it before the first instance of a new version starts (a deploy step), or at each start.
 * The tables at a newer version than this verify-kit knows: STORE_SCHEMA_MISMATCH (never lowered).
 */
export async function migrate(driver: SqlDriver): Promise<MigrateResult> {
  const checked = checkedDriver('migrate', driver);
  const from = await schemaVersionOf(checked);
  if (from > SCHEMA_VERSION) throw schemaMismatch(from, 'migrate');
  if (from === SCHEMA_VERSION) return { from, to: from };
  await checked.transaction(migrationStatements(DIALECTS[checked.dialect], from));
  return { from, to: SCHEMA_VERSION };
}

/** Why a store cannot use the tables it found at `found`, and the fix. */
export function schemaMismatch(found: number, where = 'sqlStore'): VerifyKitError {
  const fix =
    found === 0
      ? `verify-kit's tables are not in this database: run \`await migrate(driver)\` (@verify-kit/core/sql) once before the kit starts, or apply the package's sql/<dialect>/schema.sql`
      : found < SCHEMA_VERSION
        ? `verify-kit's tables are at schema version ${found} and this verify-kit needs ${SCHEMA_VERSION}: run \`await migrate(driver)\` (@verify-kit/core/sql; it upgrades them in place) before this version starts`
        : `verify-kit's tables are at schema version ${found}, newer than this verify-kit knows (${SCHEMA_VERSION}): a newer verify-kit migrated them; upgrade @verify-kit/core here too`;
  return new VerifyKitError(ERROR_CODE.STORE_SCHEMA_MISMATCH, `${where}: ${fix}`, {
    details: [{ found, expected: SCHEMA_VERSION }],
  });
}

/** The schema of `dialect` as a file: what sql/<dialect>/schema.sql holds (checked by a test). */
export function schemaSql(dialect: SqlDialect): string {
  const statements = migrationStatements({ ...DIALECTS[dialect], migrationLock: [] }, 0);
  return [
    `-- verify-kit's tables (${dialect}), schema version ${SCHEMA_VERSION}: what \`migrate(driver)\` from`,
    '-- @verify-kit/core/sql creates. For a migration tool of your own: apply it in one transaction.',
    '-- Generated from packages/core/src/sql; do not edit.',
    '',
    `${statements.join(';\n\n')};`,
    '',
  ].join('\n');
}

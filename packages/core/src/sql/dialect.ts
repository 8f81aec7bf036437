import type { SqlDialect, SqlValue } from './driver.js';

/** One statement and its parameters, in the order its dialect's placeholders take them. */
export interface Statement {
  text: string;
  params: SqlValue[];
}

/** The tables whose rows expire (`expires_at`, epoch ms) and `prune` deletes. */
export type ExpiringTable = 'bindings' | 'statusRecords' | 'decisions' | 'webhookIds';

/** The tables holding a record as JSON, read by key while it lives. */
export type RecordTable = Exclude<ExpiringTable, 'webhookIds'>;

/** A schema version and the statements that make it from the one before: each idempotent. */
export interface Migration {
  version: number;
  statements: readonly string[];
}

/**
 * Everything verify-kit says to a database, written once per dialect (postgres.ts, sqlite.ts): the
 * schema's migrations and each statement of the store. Times are epoch ms, given by the store.
 */
export interface Dialect {
  readonly name: SqlDialect;
  /** Version 1 first: every table and index, `IF NOT EXISTS`. */
  readonly migrations: readonly Migration[];
  /** Run first in migrate's transaction: one migration at a time across instances (may be none). */
  readonly migrationLock: readonly string[];
  /** Records the schema's version in the migration's transaction (never lowers it). */
  recordVersion(version: number): string;
  /** `{ version }` of the tables in this database; fails when there is no such table. */
  readonly readVersion: string;
  /** `{ present }`, truthy when the schema table exists (to tell a missing table from a failure). */
  readonly schemaPresent: string;
  /** `{ value }`: the record's JSON while it lives. */
  read(table: RecordTable, key: string, now: number): Statement;
  /** Deletes the record (any age). */
  remove(table: RecordTable, key: string): Statement;
  /** Stores an account's (or visitor's) binding, replacing any. */
  putBinding(key: string, json: string, expiresAt: number): Statement;
  /** Stores a status record where none lives; returns a row when it stored. */
  insertStatus(key: string, status: string, json: string, expiresAt: number, now: number): Statement;
  /** Replaces a living status record whose status is `expected`; returns a row when it stored. */
  updateStatus(
    key: string,
    expected: string,
    status: string,
    json: string,
    expiresAt: number,
    now: number,
  ): Statement;
  /** Stores a decision unless a living one is later (`at`); returns a row when it stored. */
  putDecision(key: string, at: number, json: string, expiresAt: number, now: number): Statement;
  /** Records a webhook id unless a living record has it; returns a row when it recorded. */
  claim(id: string, expiresAt: number, now: number): Statement;
  /** Deletes at most `limit` expired rows of `table`, one row returned per row deleted. */
  prune(table: ExpiringTable, now: number, limit: number): Statement;
}

/** Each table's name in the database, the same in both dialects. */
export const TABLE_NAMES: Readonly<Record<ExpiringTable | 'schema', string>> = {
  schema: 'verify_kit_schema',
  bindings: 'verify_kit_bindings',
  statusRecords: 'verify_kit_status_records',
  decisions: 'verify_kit_decisions',
  webhookIds: 'verify_kit_webhook_ids',
};

/** The JSON column of each record table. */
export const JSON_COLUMNS: Readonly<Record<RecordTable, string>> = {
  bindings: 'binding',
  statusRecords: 'record',
  decisions: 'decision',
};

import {
  type Dialect,
  type ExpiringTable,
  JSON_COLUMNS,
  type RecordTable,
  type Statement,
  TABLE_NAMES as T,
} from './dialect.js';

// verify-kit's statements in SQLite (3.35+: RETURNING), for node:sqlite, bun:sqlite, better-sqlite3
// and Cloudflare D1. Keys are TEXT (BINARY collation: case-sensitive), records are JSON kept as TEXT
// exactly as written, times are INTEGER epoch ms (64-bit: Number.MAX_SAFE_INTEGER, the retired
// marker, fits). Placeholders are plain `?`, in order: every SQLite driver binds them so.

const V1 = [
  `CREATE TABLE IF NOT EXISTS ${T.schema} (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL,
  migrated_at INTEGER NOT NULL
)`,
  `CREATE TABLE IF NOT EXISTS ${T.bindings} (
  id TEXT PRIMARY KEY NOT NULL,
  binding TEXT NOT NULL,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS ${T.statusRecords} (
  id TEXT PRIMARY KEY NOT NULL,
  status TEXT NOT NULL,
  record TEXT NOT NULL,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS ${T.decisions} (
  id TEXT PRIMARY KEY NOT NULL,
  at INTEGER NOT NULL,
  decision TEXT NOT NULL,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS ${T.webhookIds} (
  id TEXT PRIMARY KEY NOT NULL,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID`,
  ...(['bindings', 'statusRecords', 'decisions', 'webhookIds'] as const).map(
    (table) => `CREATE INDEX IF NOT EXISTS ${T[table]}_expires_at ON ${T[table]} (expires_at)`,
  ),
];

const perTable = <K extends string>(tables: readonly K[], text: (table: K) => string) =>
  Object.fromEntries(tables.map((table) => [table, text(table)])) as Record<K, string>;

const RECORD_TABLES: readonly RecordTable[] = ['bindings', 'statusRecords', 'decisions'];
const EXPIRING: readonly ExpiringTable[] = [...RECORD_TABLES, 'webhookIds'];

const READ = perTable(
  RECORD_TABLES,
  (table) => `SELECT ${JSON_COLUMNS[table]} AS value FROM ${T[table]} WHERE id = ? AND expires_at > ?`,
);
const REMOVE = perTable(RECORD_TABLES, (table) => `DELETE FROM ${T[table]} WHERE id = ?`);
const PRUNE = perTable(
  EXPIRING,
  (table) =>
    `DELETE FROM ${T[table]} WHERE id IN (SELECT id FROM ${T[table]} WHERE expires_at <= ? LIMIT ?) RETURNING 1 AS gone`,
);

const PUT_BINDING = `INSERT INTO ${T.bindings} (id, binding, expires_at) VALUES (?, ?, ?)
ON CONFLICT (id) DO UPDATE SET binding = excluded.binding, expires_at = excluded.expires_at`;

// An expired record counts as none: it is replaced as if absent.
const INSERT_STATUS = `INSERT INTO ${T.statusRecords} AS s (id, status, record, expires_at) VALUES (?, ?, ?, ?)
ON CONFLICT (id) DO UPDATE SET status = excluded.status, record = excluded.record, expires_at = excluded.expires_at
WHERE s.expires_at <= ?
RETURNING 1 AS stored`;

// SQLite writes one statement at a time: the first of concurrent updates from one status changes it.
const UPDATE_STATUS = `UPDATE ${T.statusRecords} SET status = ?, record = ?, expires_at = ?
WHERE id = ? AND status = ? AND expires_at > ?
RETURNING 1 AS stored`;

// Newer wins in one statement: a tie stores (the later write), an expired decision counts as none.
const PUT_DECISION = `INSERT INTO ${T.decisions} AS d (id, at, decision, expires_at) VALUES (?, ?, ?, ?)
ON CONFLICT (id) DO UPDATE SET at = excluded.at, decision = excluded.decision, expires_at = excluded.expires_at
WHERE excluded.at >= d.at OR d.expires_at <= ?
RETURNING 1 AS stored`;

const CLAIM = `INSERT INTO ${T.webhookIds} AS w (id, expires_at) VALUES (?, ?)
ON CONFLICT (id) DO UPDATE SET expires_at = excluded.expires_at
WHERE w.expires_at <= ?
RETURNING 1 AS claimed`;

const statement = (text: string, ...params: Statement['params']): Statement => ({ text, params });

export const sqlite: Dialect = {
  name: 'sqlite',
  migrations: [{ version: 1, statements: V1 }],
  // BEGIN IMMEDIATE (sqliteDriver) or D1's batch already makes a migration the only writer.
  migrationLock: [],
  recordVersion: (version) =>
    `INSERT INTO ${T.schema} AS v (id, version, migrated_at)
VALUES (1, ${Math.trunc(version)}, CAST(strftime('%s', 'now') AS INTEGER) * 1000)
ON CONFLICT (id) DO UPDATE SET version = excluded.version, migrated_at = excluded.migrated_at
WHERE v.version < excluded.version`,
  readVersion: `SELECT version FROM ${T.schema} WHERE id = 1`,
  schemaPresent: `SELECT count(*) AS present FROM sqlite_master WHERE type = 'table' AND name = '${T.schema}'`,
  read: (table, key, now) => statement(READ[table], key, now),
  remove: (table, key) => statement(REMOVE[table], key),
  putBinding: (key, json, expiresAt) => statement(PUT_BINDING, key, json, expiresAt),
  insertStatus: (key, status, json, expiresAt, now) =>
    statement(INSERT_STATUS, key, status, json, expiresAt, now),
  updateStatus: (key, expected, status, json, expiresAt, now) =>
    statement(UPDATE_STATUS, status, json, expiresAt, key, expected, now),
  putDecision: (key, at, json, expiresAt, now) => statement(PUT_DECISION, key, at, json, expiresAt, now),
  claim: (id, expiresAt, now) => statement(CLAIM, id, expiresAt, now),
  prune: (table, now, limit) => statement(PRUNE[table], now, limit),
};

import {
  type Dialect,
  type ExpiringTable,
  JSON_COLUMNS,
  type RecordTable,
  type Statement,
  TABLE_NAMES as T,
} from './dialect.js';

// verify-kit's statements in PostgreSQL (9.5+: INSERT … ON CONFLICT). Keys are TEXT in the "C"
// collation (compared byte for byte: account ids are case-sensitive), records are JSON kept as TEXT
// exactly as written (every field round-trips), times are BIGINT epoch ms (Number.MAX_SAFE_INTEGER,
// the retired marker, fits).

const V1 = [
  `CREATE TABLE IF NOT EXISTS ${T.schema} (
  id SMALLINT PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL,
  migrated_at BIGINT NOT NULL
)`,
  `CREATE TABLE IF NOT EXISTS ${T.bindings} (
  id TEXT COLLATE "C" PRIMARY KEY,
  binding TEXT NOT NULL,
  expires_at BIGINT NOT NULL
)`,
  `CREATE TABLE IF NOT EXISTS ${T.statusRecords} (
  id TEXT COLLATE "C" PRIMARY KEY,
  status TEXT NOT NULL,
  record TEXT NOT NULL,
  expires_at BIGINT NOT NULL
)`,
  `CREATE TABLE IF NOT EXISTS ${T.decisions} (
  id TEXT COLLATE "C" PRIMARY KEY,
  at BIGINT NOT NULL,
  decision TEXT NOT NULL,
  expires_at BIGINT NOT NULL
)`,
  `CREATE TABLE IF NOT EXISTS ${T.webhookIds} (
  id TEXT COLLATE "C" PRIMARY KEY,
  expires_at BIGINT NOT NULL
)`,
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
  (table) => `SELECT ${JSON_COLUMNS[table]} AS value FROM ${T[table]} WHERE id = $1 AND expires_at > $2`,
);
const REMOVE = perTable(RECORD_TABLES, (table) => `DELETE FROM ${T[table]} WHERE id = $1`);
const PRUNE = perTable(
  EXPIRING,
  (table) =>
    `DELETE FROM ${T[table]} WHERE id IN (SELECT id FROM ${T[table]} WHERE expires_at <= $1 LIMIT $2) RETURNING 1 AS gone`,
);

const PUT_BINDING = `INSERT INTO ${T.bindings} (id, binding, expires_at) VALUES ($1, $2, $3)
ON CONFLICT (id) DO UPDATE SET binding = excluded.binding, expires_at = excluded.expires_at`;

// An expired record counts as none: it is replaced as if absent.
const INSERT_STATUS = `INSERT INTO ${T.statusRecords} AS s (id, status, record, expires_at) VALUES ($1, $2, $3, $4)
ON CONFLICT (id) DO UPDATE SET status = excluded.status, record = excluded.record, expires_at = excluded.expires_at
WHERE s.expires_at <= $5
RETURNING 1 AS stored`;

// Row-locked: of concurrent updates from one status, the first commits and the others, re-checked
// against its row, find another status.
const UPDATE_STATUS = `UPDATE ${T.statusRecords} SET status = $3, record = $4, expires_at = $5
WHERE id = $1 AND status = $2 AND expires_at > $6
RETURNING 1 AS stored`;

// Newer wins in one statement: a tie stores (the later write), an expired decision counts as none.
const PUT_DECISION = `INSERT INTO ${T.decisions} AS d (id, at, decision, expires_at) VALUES ($1, $2, $3, $4)
ON CONFLICT (id) DO UPDATE SET at = excluded.at, decision = excluded.decision, expires_at = excluded.expires_at
WHERE excluded.at >= d.at OR d.expires_at <= $5
RETURNING 1 AS stored`;

const CLAIM = `INSERT INTO ${T.webhookIds} AS w (id, expires_at) VALUES ($1, $2)
ON CONFLICT (id) DO UPDATE SET expires_at = excluded.expires_at
WHERE w.expires_at <= $3
RETURNING 1 AS claimed`;

const statement = (text: string, ...params: Statement['params']): Statement => ({ text, params });

export const postgres: Dialect = {
  name: 'postgres',
  migrations: [{ version: 1, statements: V1 }],
  // One migration at a time: concurrent CREATE … IF NOT EXISTS may otherwise collide in the catalog.
  migrationLock: ["SELECT pg_advisory_xact_lock(hashtext('verify_kit_schema'))"],
  recordVersion: (version) =>
    `INSERT INTO ${T.schema} AS v (id, version, migrated_at)
VALUES (1, ${Math.trunc(version)}, (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
ON CONFLICT (id) DO UPDATE SET version = excluded.version, migrated_at = excluded.migrated_at
WHERE v.version < excluded.version`,
  readVersion: `SELECT version FROM ${T.schema} WHERE id = 1`,
  schemaPresent: `SELECT to_regclass('${T.schema}') IS NOT NULL AS present`,
  read: (table, key, now) => statement(READ[table], key, now),
  remove: (table, key) => statement(REMOVE[table], key),
  putBinding: (key, json, expiresAt) => statement(PUT_BINDING, key, json, expiresAt),
  insertStatus: (key, status, json, expiresAt, now) =>
    statement(INSERT_STATUS, key, status, json, expiresAt, now),
  updateStatus: (key, expected, status, json, expiresAt, now) =>
    statement(UPDATE_STATUS, key, expected, status, json, expiresAt, now),
  putDecision: (key, at, json, expiresAt, now) => statement(PUT_DECISION, key, at, json, expiresAt, now),
  claim: (id, expiresAt, now) => statement(CLAIM, id, expiresAt, now),
  prune: (table, now, limit) => statement(PRUNE[table], now, limit),
};

-- verify-kit's tables (postgres), schema version 1: what `migrate(driver)` from
-- @verify-kit/core/sql creates. For a migration tool of your own: apply it in one transaction.
-- Generated from packages/core/src/sql; do not edit.

CREATE TABLE IF NOT EXISTS verify_kit_schema (
  id SMALLINT PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL,
  migrated_at BIGINT NOT NULL
);

CREATE TABLE IF NOT EXISTS verify_kit_bindings (
  id TEXT COLLATE "C" PRIMARY KEY,
  binding TEXT NOT NULL,
  expires_at BIGINT NOT NULL
);

CREATE TABLE IF NOT EXISTS verify_kit_status_records (
  id TEXT COLLATE "C" PRIMARY KEY,
  status TEXT NOT NULL,
  record TEXT NOT NULL,
  expires_at BIGINT NOT NULL
);

CREATE TABLE IF NOT EXISTS verify_kit_decisions (
  id TEXT COLLATE "C" PRIMARY KEY,
  at BIGINT NOT NULL,
  decision TEXT NOT NULL,
  expires_at BIGINT NOT NULL
);

CREATE TABLE IF NOT EXISTS verify_kit_webhook_ids (
  id TEXT COLLATE "C" PRIMARY KEY,
  expires_at BIGINT NOT NULL
);

CREATE INDEX IF NOT EXISTS verify_kit_bindings_expires_at ON verify_kit_bindings (expires_at);

CREATE INDEX IF NOT EXISTS verify_kit_status_records_expires_at ON verify_kit_status_records (expires_at);

CREATE INDEX IF NOT EXISTS verify_kit_decisions_expires_at ON verify_kit_decisions (expires_at);

CREATE INDEX IF NOT EXISTS verify_kit_webhook_ids_expires_at ON verify_kit_webhook_ids (expires_at);

INSERT INTO verify_kit_schema AS v (id, version, migrated_at)
VALUES (1, 1, (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
ON CONFLICT (id) DO UPDATE SET version = excluded.version, migrated_at = excluded.migrated_at
WHERE v.version < excluded.version;

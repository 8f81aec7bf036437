import { ERROR_CODES, VerifyKitError } from '@verify-kit/client/fetch';
import { z } from 'zod';
import type { BindingStore, RecordStore } from '../bindings/binding-store.js';
import { type Retention, resolveRetention } from '../bindings/retention.js';
import type { ReplayStore } from '../webhooks/replay-store.js';
import type { SqlDialect, SqlDriver } from './driver.js';
import { checkedDriver, DIALECTS, SCHEMA_VERSION, schemaMismatch, schemaVersionOf } from './schema.js';
import {
  type PruneResult,
  pruneExpired,
  type SqlContext,
  sqlRecords,
  sqlReplayStore,
} from './sql-records.js';

export interface SqlStoreOptions {
  /** How long bindings and status records are kept. Default 365 days approved, 7 days pending. */
  retention?: Retention;
}

/**
 * verify-kit's state in your database, for `createVerifyKit({ store: sqlStore(driver) })`: the
 * records (bindings, status records, decisions) and the accepted webhook ids, on one set of tables
 * (`migrate`). What SQL does not hold — the limits' counters, the status bus — stays in each
 * process unless given on its own (`statusBus`, `sessionLimit.redis`); the kit's startup warning
 * names it.
 */
export interface SqlStore {
  readonly dialect: SqlDialect;
  /** Account bindings, status records and stored decisions: a RecordStore (as `bindingStore`). */
  readonly bindings: RecordStore & BindingStore;
  /** The webhook-ids already accepted (as `replayStore`). */
  readonly replayStore: ReplayStore;
  /**
   * Resolves once the tables are at this verify-kit's schema version; rejects with
   * STORE_SCHEMA_MISMATCH (missing, older or newer tables: the message names the fix) or the
   * database's own error. Await it at startup to refuse to start; every call awaits it anyway.
   */
  ready(): Promise<void>;
  /** The database answers and holds this version's tables. */
  health(): Promise<boolean>;
  /** Deletes the expired rows (reads already ignore them): schedule it, e.g. hourly. */
  prune(): Promise<PruneResult>;
  /** Nothing to close: the driver's client is yours (end your pool after the kit). Idempotent. */
  close(): Promise<void>;
}

const OptionsSchema = z.strictObject({ retention: z.unknown().optional() });

/**
 * A store on your SQL database (PostgreSQL, SQLite, Cloudflare D1) through a driver:
 * `sqlStore(pgDriver(pool))`. Checks the tables' schema version before its first statement, and
 * refuses (STORE_SCHEMA_MISMATCH) rather than run a wrong query.
 */
export function sqlStore(driver: SqlDriver, options: SqlStoreOptions = {}): SqlStore {
  const factory = 'sqlStore';
  const checked = checkedDriver(factory, driver);
  const parsed = OptionsSchema.safeParse(options ?? {});
  if (!parsed.success) {
    const known = Object.keys(OptionsSchema.shape).join(', ');
    throw new VerifyKitError(
      ERROR_CODES.INVALID_OPTIONS,
      `${factory}: invalid options: the options are { ${known} }`,
    );
  }
  const retention = resolveRetention(factory, parsed.data.retention);
  let checking: Promise<void> | undefined;
  const context: SqlContext = {
    driver: checked,
    dialect: DIALECTS[checked.dialect],
    // Once the tables are right they stay so; a failure (the database down, the tables missing) is
    // asked again at the next call: a migration run meanwhile is seen at once.
    ready() {
      if (checking === undefined) {
        checking = schemaVersionOf(checked).then((found) => {
          if (found !== SCHEMA_VERSION) throw schemaMismatch(found);
        });
        checking.catch(() => {
          checking = undefined;
        });
      }
      return checking;
    },
    now: Date.now,
  };
  const health = async () => (await schemaVersionOf(checked)) === SCHEMA_VERSION;
  const bindings = Object.assign(sqlRecords(context, retention), { health });
  return {
    dialect: checked.dialect,
    bindings,
    replayStore: sqlReplayStore(context),
    ready: () => context.ready(),
    health,
    prune: () => pruneExpired(context),
    close: async () => undefined,
  };
}

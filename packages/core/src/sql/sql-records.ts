import type { BindingStore, RecordStore } from '../bindings/binding-store.js';
import { withFlatMethods } from '../bindings/binding-store.js';
import { bindingExpiresAt, type ResolvedRetention, statusRecordExpiresAt } from '../bindings/retention.js';
import { sha256Base64Url } from '../shared/sha256.js';
import type { ReplayStore } from '../webhooks/replay-store.js';
import type { Dialect, ExpiringTable, Statement } from './dialect.js';
import type { SqlDriver, SqlRow } from './driver.js';
import { bindingOf, decisionOf, statusRecordOf } from './rows.js';

/** What a store's statements run on: the driver, its dialect, and the schema check every call awaits. */
export interface SqlContext {
  driver: SqlDriver;
  dialect: Dialect;
  /** Resolves once the tables are known to be at this verify-kit's schema version. */
  ready(): Promise<void>;
  now(): number;
}

async function run(context: SqlContext, statement: (now: number) => Statement): Promise<readonly SqlRow[]> {
  await context.ready();
  const { text, params } = statement(context.now());
  return context.driver.query(text, params);
}

/**
 * The kit's records in SQL (bindings, status records, decisions), with the same rules as the Redis
 * store: every record expires (retention.ts; a row past `expires_at` is never answered, `prune`
 * deletes it), a compare-and-set and a newer-wins put are each one atomic statement.
 */
export function sqlRecords(context: SqlContext, retention: ResolvedRetention): RecordStore & BindingStore {
  const { dialect } = context;
  const done = async (statement: (now: number) => Statement) => void (await run(context, statement));
  const stored = async (statement: (now: number) => Statement) => (await run(context, statement)).length > 0;
  const store: RecordStore = {
    bindings: {
      get: async (key) => bindingOf(await run(context, (now) => dialect.read('bindings', key, now))),
      set: (key, binding) =>
        done(() => dialect.putBinding(key, JSON.stringify(binding), bindingExpiresAt(binding, retention))),
      delete: (key) => done(() => dialect.remove('bindings', key)),
    },
    statusRecords: {
      get: async (key) =>
        statusRecordOf(await run(context, (now) => dialect.read('statusRecords', key, now))),
      compareAndSet: (key, expected, next) => {
        const json = JSON.stringify(next);
        const until = statusRecordExpiresAt(next, retention);
        return stored((now) =>
          expected === undefined
            ? dialect.insertStatus(key, next.status, json, until, now)
            : dialect.updateStatus(key, expected, next.status, json, until, now),
        );
      },
      delete: (key) => done(() => dialect.remove('statusRecords', key)),
    },
    decisions: {
      get: async (key) => decisionOf(await run(context, (now) => dialect.read('decisions', key, now))),
      put: (key, next, ttlMs) =>
        stored((now) =>
          dialect.putDecision(key, next.at, JSON.stringify(next), now + Math.max(1, Math.ceil(ttlMs)), now),
        ),
      delete: (key) => done(() => dialect.remove('decisions', key)),
    },
  };
  return withFlatMethods(store);
}

/**
 * Accepted webhook-ids in SQL, shared by every instance: one `INSERT … ON CONFLICT` per claim, so
 * of two copies of one delivery reaching two instances exactly one is accepted.
 */
export function sqlReplayStore(context: SqlContext): ReplayStore {
  return {
    async claim(id, ttlSeconds) {
      // Hashed: a custom verifier's ids may be long; the key stays short and printable.
      const key = await sha256Base64Url(id);
      const ttlMs = Math.max(1, Math.ceil(ttlSeconds * 1000));
      return (await run(context, (now) => context.dialect.claim(key, now + ttlMs, now))).length > 0;
    },
  };
}

/** How many expired rows `prune` deleted, per table. */
export type PruneResult = Record<ExpiringTable, number>;

const PRUNE_BATCH = 1000;
const PRUNED: readonly ExpiringTable[] = ['bindings', 'statusRecords', 'decisions', 'webhookIds'];

/**
 * Deletes every expired row, a thousand at a time (short statements, short locks), and says how
 * many of each table. Reads ignore expired rows already: this only gives their room back.
 */
export async function pruneExpired(context: SqlContext): Promise<PruneResult> {
  const result = {} as PruneResult;
  const now = context.now();
  for (const table of PRUNED) {
    let total = 0;
    for (;;) {
      const gone = (await run(context, () => context.dialect.prune(table, now, PRUNE_BATCH))).length;
      total += gone;
      if (gone < PRUNE_BATCH) break;
    }
    result[table] = total;
  }
  return result;
}

import { ERROR_CODES, VerifyKitError } from '@verify-kit/client/fetch';
import { z } from 'zod';
import { BoundedMap } from '../shared/lru.js';
import type { VerificationBinding } from './binding.js';
import { bindingExpiresAt, type Retention, resolveRetention, statusRecordExpiresAt } from './retention.js';

/** Decisions one process keeps at most (the least recently used go first: their owners read again). */
const MEMORY_DECISIONS = 100_000;

// Stores whose decisions live in this process only: a webhook received by another instance reaches
// them through the status bus's hint (decisions.ts), not through the store.
const perProcessStores = new WeakSet<object>();

/** true for createMemoryBindingStore's stores (one process); any other store is taken as shared. */
export function isPerProcessStore(store: RecordStore): boolean {
  return perProcessStores.has(store);
}
/** Bindings and status records one process keeps at most, each (the least recently used go first). */
const MEMORY_ENTRIES = 100_000;

/** The last status the kit saw of an identification: what `onStatusChange` compares against. */
export interface StatusRecord {
  status: string;
  /** Epoch ms when the upstream read that saw `status` started: an older read never overwrites it. */
  observedAt: number;
  /** The account the identification is bound to; absent for an anonymous visitor's. */
  accountId?: string;
  verificationSessionId: string;
  /** ISO 8601 end of the verification session. */
  expiresAt: string;
  /** The id as the service spelled it at creation (the record's key is its lower-case form). */
  identificationId?: string;
}

/**
 * The last decision the kit knows of an identification (decisions.ts): what the gate answers from
 * inside a visit. Only the kit writes it, from an upstream read or a verified webhook.
 */
export interface StoredDecision {
  /** The upstream status; null when a webhook said it changed without saying to what (read again). */
  status: string | null;
  /** Epoch ms: when the read that saw it started, or when the webhook arrived. The later one wins. */
  at: number;
  source: 'read' | 'webhook';
  /** Re-read once older than this, sooner than maxAgeMs: a grant that overrode a verified refusal. Optional. */
  reReadAfterMs?: number;
}

type MaybePromise<T> = T | Promise<T>;

/** An account's binding, under the account id: which verification belongs to the account. */
export interface BindingRecords {
  get(accountId: string): MaybePromise<VerificationBinding | undefined>;
  set(accountId: string, binding: VerificationBinding): MaybePromise<void>;
  delete(accountId: string): MaybePromise<void>;
}

/** The last status seen of each identification, for `onStatusChange` (once per transition). */
export interface StatusRecords {
  get(identificationId: string): MaybePromise<StatusRecord | undefined>;
  /**
   * Stores `next` only when the stored record's status is `expectedStatus` (undefined: no record yet),
   * atomically across instances; true when it stored. The one write that decides who fires an event.
   */
  compareAndSet(
    identificationId: string,
    expectedStatus: string | undefined,
    next: StatusRecord,
  ): MaybePromise<boolean>;
  delete(identificationId: string): MaybePromise<void>;
}

/** The last decision of each identification: what the gate answers inside a visit. */
export interface DecisionRecords {
  get(identificationId: string): MaybePromise<StoredDecision | undefined>;
  /**
   * Stores `next` unless the stored decision's `at` is later (atomically across instances): an older
   * read or event never overwrites a newer one. `ttlMs`: it may be dropped after that (the kit
   * ignores an older one anyway). True when it stored.
   */
  put(identificationId: string, next: StoredDecision, ttlMs: number): MaybePromise<boolean>;
  delete(identificationId: string): MaybePromise<void>;
}

/**
 * Where verify-kit keeps its records, named by what each holds: `bindings` (which identification
 * belongs to which account), `statusRecords` (the last status seen of each identification, so that
 * `onStatusChange` fires once per transition across instances) and `decisions` (the last decision
 * of each identification: what the gate answers inside a visit; a webhook on any instance reaches it
 * here). Holds ids, links, a session code and statuses: no personal data. What `bindingStore`
 * takes. Implement it over your own database; `createMemoryBindingStore` (one process) and
 * `createRedisBindingStore` (`@verify-kit/express/redis`) ship with the kit.
 *
 * Everything stored expires: a binding at `bindingExpiresAt(binding)`, a status record at
 * `statusRecordExpiresAt(record)` (retention.ts; recomputed on each write), and the store never
 * answers one past its time. Identification ids arrive as keys (`identificationKey`, lower case).
 */
export interface RecordStore {
  bindings: BindingRecords;
  statusRecords: StatusRecords;
  decisions: DecisionRecords;
  /** For kit.health(): false (or a rejection) when the store cannot serve. Optional. */
  health?(): MaybePromise<boolean>;
}

/**
 * The store contract before `RecordStore`: the same records in one flat interface.
 *
 * @deprecated Implement `RecordStore` (`bindings`, `statusRecords`, `decisions`): `get`/`set`/`delete`
 * become `bindings.get`/`set`/`delete`, `getStatus`/`compareAndSetStatus`/`deleteStatus` become
 * `statusRecords.get`/`compareAndSet`/`delete`, `getDecision`/`putDecision`/`deleteDecision` become
 * `decisions.get`/`put`/`delete`. `bindingStore` still takes this shape (adapted) until 1.0, and the
 * shipped stores still answer it; it goes at 1.0.
 */
export interface BindingStore {
  get(accountId: string): MaybePromise<VerificationBinding | undefined>;
  set(accountId: string, binding: VerificationBinding): MaybePromise<void>;
  delete(accountId: string): MaybePromise<void>;
  getStatus(identificationId: string): MaybePromise<StatusRecord | undefined>;
  compareAndSetStatus(
    identificationId: string,
    expectedStatus: string | undefined,
    next: StatusRecord,
  ): MaybePromise<boolean>;
  deleteStatus(identificationId: string): MaybePromise<void>;
  getDecision(identificationId: string): MaybePromise<StoredDecision | undefined>;
  putDecision(identificationId: string, next: StoredDecision, ttlMs: number): MaybePromise<boolean>;
  deleteDecision(identificationId: string): MaybePromise<void>;
  health?(): MaybePromise<boolean>;
}

/** Each record's methods, as `bindingStore` is checked (options.ts) and the shipped stores answer them. */
export const RECORD_STORE_METHODS = {
  bindings: ['get', 'set', 'delete'],
  statusRecords: ['get', 'compareAndSet', 'delete'],
  decisions: ['get', 'put', 'delete'],
} as const;

/** The deprecated flat shape's methods, in the order of RECORD_STORE_METHODS. */
export const BINDING_STORE_METHODS = [
  'get',
  'set',
  'delete',
  'getStatus',
  'compareAndSetStatus',
  'deleteStatus',
  'getDecision',
  'putDecision',
  'deleteDecision',
] as const;

/** true when `value` has any of RecordStore's parts (then it is read, and checked, as one). */
export function looksLikeRecordStore(value: object): boolean {
  const parts = value as Record<string, unknown>;
  return Object.keys(RECORD_STORE_METHODS).some(
    (part) => typeof parts[part] === 'object' && parts[part] !== null,
  );
}

/** Each record's method and the flat BindingStore method it was (the migration note's table). */
const FLAT_NAMES = {
  bindings: { get: 'get', set: 'set', delete: 'delete' },
  statusRecords: { get: 'getStatus', compareAndSet: 'compareAndSetStatus', delete: 'deleteStatus' },
  decisions: { get: 'getDecision', put: 'putDecision', delete: 'deleteDecision' },
} as const;

// The flat methods withFlatMethods made (each calls its record's): not the integrator's own.
const kitFlatMethods = new WeakSet<object>();

type AnyMethod = (...args: unknown[]) => unknown;
/** `target[name](...args)` at call time, `this` kept (a class-based store works). */
const callOn =
  (target: object, name: string): AnyMethod =>
  (...args) =>
    (target as Record<string, AnyMethod>)[name]?.(...args);

/**
 * What the kit uses of `bindingStore`: a RecordStore as it is (the shipped stores); a store of the
 * deprecated flat shape adapted, each record's method calling the flat one. A flat method of the
 * integrator's own beside records (`{ ...createMemoryBindingStore(), getDecision }`, a wrapper
 * written for the flat shape) takes precedence over its record's method, as it did.
 */
export function toRecordStore(store: RecordStore | BindingStore): RecordStore {
  const methods = store as unknown as Record<string, unknown>;
  const ownFlat = (name: string) => {
    const method = methods[name];
    return typeof method === 'function' && !kitFlatMethods.has(method);
  };
  const records = looksLikeRecordStore(store);
  if (records && !BINDING_STORE_METHODS.some(ownFlat)) return store as RecordStore;
  const adapted: Record<string, unknown> = {};
  for (const [part, names] of Object.entries(FLAT_NAMES)) {
    adapted[part] = Object.fromEntries(
      Object.entries(names).map(([method, flatName]) => [
        method,
        !records || ownFlat(flatName) ? callOn(store, flatName) : callOn(methods[part] as object, method),
      ]),
    );
  }
  if (typeof methods.health === 'function') adapted.health = callOn(store, 'health');
  return adapted as unknown as RecordStore;
}

/**
 * A shipped store answers the deprecated flat methods too until 1.0 (code that calls
 * `store.get(accountId)` or types it `BindingStore` keeps working): each calls its record's.
 */
export function withFlatMethods<T extends RecordStore>(store: T): T & BindingStore {
  const { bindings, statusRecords, decisions } = store;
  const flat = {
    get: (accountId: string) => bindings.get(accountId),
    set: (accountId: string, binding: VerificationBinding) => bindings.set(accountId, binding),
    delete: (accountId: string) => bindings.delete(accountId),
    getStatus: (identificationId: string) => statusRecords.get(identificationId),
    compareAndSetStatus: (identificationId: string, expected: string | undefined, next: StatusRecord) =>
      statusRecords.compareAndSet(identificationId, expected, next),
    deleteStatus: (identificationId: string) => statusRecords.delete(identificationId),
    getDecision: (identificationId: string) => decisions.get(identificationId),
    putDecision: (identificationId: string, next: StoredDecision, ttlMs: number) =>
      decisions.put(identificationId, next, ttlMs),
    deleteDecision: (identificationId: string) => decisions.delete(identificationId),
  };
  for (const method of Object.values(flat)) kitFlatMethods.add(method);
  return Object.assign(store, flat);
}

export interface MemoryBindingStoreOptions {
  /** How long bindings and status records are kept (retention.ts). Default 365 days approved, 7 days pending. */
  retention?: Retention;
  /** Bindings, and status records, kept at most (each): the least recently used go first. Default 100 000. */
  maxEntries?: number;
}

const MemoryOptionsSchema = z.strictObject({
  retention: z.unknown().optional(),
  maxEntries: z.number().int().min(1).max(10_000_000).optional(),
});

/**
 * One process (the default): bindings are lost on restart and not shared between instances. Bounded
 * (`maxEntries`) and expiring (`retention`); an evicted account's binding is verified again.
 */
export function createMemoryBindingStore(
  options: MemoryBindingStoreOptions = {},
): RecordStore & BindingStore {
  const factory = 'createMemoryBindingStore';
  const parsed = MemoryOptionsSchema.safeParse(options ?? {});
  if (!parsed.success) {
    throw new VerifyKitError(
      ERROR_CODES.INVALID_OPTIONS,
      `${factory}: invalid options: maxEntries must be an integer from 1 to 10000000`,
    );
  }
  const retention = resolveRetention(factory, parsed.data.retention);
  const maxEntries = parsed.data.maxEntries ?? MEMORY_ENTRIES;
  const bindings = new BoundedMap<string, VerificationBinding>(maxEntries);
  const statuses = new BoundedMap<string, StatusRecord>(maxEntries);
  // An entry whose time is already up is not kept (a ttl of 0 would read as "forever").
  const keep = <V extends {}>(map: BoundedMap<string, V>, key: string, value: V, until: number) => {
    const ttl = until - Date.now();
    if (ttl > 0) map.set(key, value, ttl);
    else map.delete(key);
  };
  const decisions = new BoundedMap<string, StoredDecision>(MEMORY_DECISIONS);
  const store = withFlatMethods<RecordStore>({
    bindings: {
      get: (accountId) => bindings.get(accountId),
      set(accountId, binding) {
        keep(bindings, accountId, structuredClone(binding), bindingExpiresAt(binding, retention));
      },
      delete(accountId) {
        bindings.delete(accountId);
      },
    },
    statusRecords: {
      get: (identificationId) => statuses.get(identificationId),
      compareAndSet(identificationId, expectedStatus, next) {
        if (statuses.get(identificationId)?.status !== expectedStatus) return false;
        keep(statuses, identificationId, { ...next }, statusRecordExpiresAt(next, retention));
        return true;
      },
      delete(identificationId) {
        statuses.delete(identificationId);
      },
    },
    decisions: {
      get: (identificationId) => decisions.get(identificationId),
      put(identificationId, next, ttlMs) {
        if ((decisions.get(identificationId)?.at ?? Number.NEGATIVE_INFINITY) > next.at) return false;
        decisions.set(identificationId, { ...next }, ttlMs);
        return true;
      },
      delete(identificationId) {
        decisions.delete(identificationId);
      },
    },
    health: () => true,
  });
  perProcessStores.add(store);
  return store;
}

import { ERROR_CODES, VerifyKitError } from '@verify-kit/client';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { BoundedMap } from '../shared/lru.js';
import type { VerificationBinding } from './binding.js';
import { bindingExpiresAt, type Retention, resolveRetention, statusRecordExpiresAt } from './retention.js';

/** Decisions one process keeps at most (the least recently used go first: their owners read again). */
const MEMORY_DECISIONS = 100_000;

// Stores whose decisions live in this process only: a webhook received by another instance reaches
// them through the status bus's hint (decisions.ts), not through the store.
const perProcessStores = new WeakSet<BindingStore>();

/** true for createMemoryBindingStore's stores (one process); any other store is taken as shared. */
export function isPerProcessStore(store: BindingStore): boolean {
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

/**
 * Where verify-kit keeps which identification belongs to which account, and the last status seen of
 * each identification (so that `onStatusChange` fires once per transition across instances), and the
 * last decision of each identification (what the gate answers inside a visit; a webhook on any
 * instance reaches it here). Holds ids, links, a session code and statuses: no personal data.
 * Implement it over your own database; `createMemoryBindingStore` (one process) and
 * `createRedisBindingStore` (`@verify-kit/express/redis`) ship with the kit.
 *
 * Everything stored expires: a binding at `bindingExpiresAt(binding)`, a status record at
 * `statusRecordExpiresAt(record)` (retention.ts; recomputed on each write), and the store never
 * answers one past its time. Identification ids arrive as keys (`identificationKey`, lower case).
 */
export interface BindingStore {
  get(accountId: string): MaybePromise<VerificationBinding | undefined>;
  set(accountId: string, binding: VerificationBinding): MaybePromise<void>;
  delete(accountId: string): MaybePromise<void>;
  getStatus(identificationId: string): MaybePromise<StatusRecord | undefined>;
  /**
   * Stores `next` only when the stored record's status is `expectedStatus` (undefined: no record yet),
   * atomically across instances; true when it stored. The one write that decides who fires an event.
   */
  compareAndSetStatus(
    identificationId: string,
    expectedStatus: string | undefined,
    next: StatusRecord,
  ): MaybePromise<boolean>;
  deleteStatus(identificationId: string): MaybePromise<void>;
  getDecision(identificationId: string): MaybePromise<StoredDecision | undefined>;
  /**
   * Stores `next` unless the stored decision's `at` is later (atomically across instances): an older
   * read or event never overwrites a newer one. `ttlMs`: it may be dropped after that (the kit
   * ignores an older one anyway). True when it stored.
   */
  putDecision(identificationId: string, next: StoredDecision, ttlMs: number): MaybePromise<boolean>;
  deleteDecision(identificationId: string): MaybePromise<void>;
  /** For kit.health(): false (or a rejection) when the store cannot serve. Optional. */
  health?(): MaybePromise<boolean>;
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
export function createMemoryBindingStore(options: MemoryBindingStoreOptions = {}): BindingStore {
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
  const bindings = new LRUCache<string, VerificationBinding>({ max: maxEntries });
  const statuses = new LRUCache<string, StatusRecord>({ max: maxEntries });
  // An entry whose time is already up is not kept (lru-cache reads a ttl of 0 as "forever").
  const keep = <V extends {}>(map: LRUCache<string, V>, key: string, value: V, until: number) => {
    const ttl = until - Date.now();
    if (ttl > 0) map.set(key, value, { ttl });
    else map.delete(key);
  };
  const decisions = new BoundedMap<string, StoredDecision>(MEMORY_DECISIONS);
  const store: BindingStore = {
    get: (accountId) => bindings.get(accountId),
    set(accountId, binding) {
      keep(bindings, accountId, structuredClone(binding), bindingExpiresAt(binding, retention));
    },
    delete(accountId) {
      bindings.delete(accountId);
    },
    getStatus: (identificationId) => statuses.get(identificationId),
    compareAndSetStatus(identificationId, expectedStatus, next) {
      if (statuses.get(identificationId)?.status !== expectedStatus) return false;
      keep(statuses, identificationId, { ...next }, statusRecordExpiresAt(next, retention));
      return true;
    },
    deleteStatus(identificationId) {
      statuses.delete(identificationId);
    },
    getDecision: (identificationId) => decisions.get(identificationId),
    putDecision(identificationId, next, ttlMs) {
      if ((decisions.get(identificationId)?.at ?? Number.NEGATIVE_INFINITY) > next.at) return false;
      decisions.set(identificationId, { ...next }, ttlMs);
      return true;
    },
    deleteDecision(identificationId) {
      decisions.delete(identificationId);
    },
    health: () => true,
  };
  perProcessStores.add(store);
  return store;
}

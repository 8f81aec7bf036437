import type { VerificationBinding } from './binding.js';

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
}

type MaybePromise<T> = T | Promise<T>;

/**
 * Where verify-kit keeps which identification belongs to which account, and the last status seen of
 * each identification (so that `onStatusChange` fires once per transition across instances). Holds
 * ids, links and a session code: no personal data, and never a grant (the gate re-reads the status).
 * Implement it over your own database; `createMemoryBindingStore` (one process) and
 * `createRedisBindingStore` (`@verify-kit/express/redis`) ship with the kit.
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
  /** For kit.health(): false (or a rejection) when the store cannot serve. Optional. */
  health?(): MaybePromise<boolean>;
}

/** One process (the default): bindings are lost on restart and not shared between instances. */
export function createMemoryBindingStore(): BindingStore {
  const bindings = new Map<string, VerificationBinding>();
  const statuses = new Map<string, StatusRecord>();
  return {
    get: (accountId) => bindings.get(accountId),
    set(accountId, binding) {
      bindings.set(accountId, structuredClone(binding));
    },
    delete(accountId) {
      bindings.delete(accountId);
    },
    getStatus: (identificationId) => statuses.get(identificationId),
    compareAndSetStatus(identificationId, expectedStatus, next) {
      if (statuses.get(identificationId)?.status !== expectedStatus) return false;
      statuses.set(identificationId, { ...next });
      return true;
    },
    deleteStatus(identificationId) {
      statuses.delete(identificationId);
    },
    health: () => true,
  };
}

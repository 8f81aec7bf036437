// The README's RecordStore, checked against the package's declaration by `pnpm lint`.
import type * as kit from '@verify-kit/express';
import type { StatusRecord, StoredDecision, VerificationBinding } from '@verify-kit/express';
import type { SameType } from '../support/same-type.js';

// #region record-store
type MaybePromise<T> = T | Promise<T>;

interface RecordStore {
  // an account's binding, under the account id:
  bindings: {
    get(accountId: string): MaybePromise<VerificationBinding | undefined>;
    set(accountId: string, binding: VerificationBinding): MaybePromise<void>;
    delete(accountId: string): MaybePromise<void>;
  };
  // the last status seen per identification, for onStatusChange:
  statusRecords: {
    get(identificationId: string): MaybePromise<StatusRecord | undefined>;
    compareAndSet(
      identificationId: string,
      expectedStatus: string | undefined,
      next: StatusRecord,
    ): MaybePromise<boolean>; // atomic
    delete(identificationId: string): MaybePromise<void>;
  };
  // the stored decision per identification, for the gate inside a visit ("Freshness and outages"):
  decisions: {
    get(identificationId: string): MaybePromise<StoredDecision | undefined>;
    put(
      identificationId: string,
      next: StoredDecision, // { status: string | null, at: number, source: 'read' | 'webhook', reReadAfterMs? }
      ttlMs: number,
    ): MaybePromise<boolean>; // atomic: stores unless the stored one's `at` is later
    delete(identificationId: string): MaybePromise<void>;
  };
  health?(): MaybePromise<boolean>;
}
// #endregion record-store

export const readmeMatchesPackage: SameType<RecordStore, kit.RecordStore> = true;

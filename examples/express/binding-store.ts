// The README's BindingStore, checked against the package's declaration by `pnpm lint`.
import type * as kit from '@verify-kit/express';
import type { StatusRecord, StoredDecision, VerificationBinding } from '@verify-kit/express';
import type { SameType } from '../support/same-type.js';

interface BindingStore {
  get(accountId: string): VerificationBinding | undefined | Promise<VerificationBinding | undefined>;
  set(accountId: string, binding: VerificationBinding): void | Promise<void>;
  delete(accountId: string): void | Promise<void>;
  // the last status seen per identification, for onStatusChange:
  getStatus(identificationId: string): StatusRecord | undefined | Promise<StatusRecord | undefined>;
  compareAndSetStatus(
    identificationId: string,
    expectedStatus: string | undefined,
    next: StatusRecord,
  ): boolean | Promise<boolean>; // atomic
  deleteStatus(identificationId: string): void | Promise<void>;
  // the stored decision per identification, for the gate inside a visit ("Freshness and outages"):
  getDecision(identificationId: string): StoredDecision | undefined | Promise<StoredDecision | undefined>;
  putDecision(
    identificationId: string,
    next: StoredDecision, // { status: string | null, at: number, source: 'read' | 'webhook', reReadAfterMs? }
    ttlMs: number,
  ): boolean | Promise<boolean>; // atomic: stores unless the stored one's `at` is later
  deleteDecision(identificationId: string): void | Promise<void>;
  health?(): boolean | Promise<boolean>;
}

export const readmeMatchesPackage: SameType<BindingStore, kit.BindingStore> = true;

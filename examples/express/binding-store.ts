// The README's BindingStore, checked against the package's declaration by `pnpm lint`.
import type * as kit from '@verify-kit/express';
import type { StatusRecord, VerificationBinding } from '@verify-kit/express';
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
  health?(): boolean | Promise<boolean>;
}

export const readmeMatchesPackage: SameType<BindingStore, kit.BindingStore> = true;

// The README's StatusBus and ReplayStore, checked against the package's declarations by `pnpm lint`.
import type * as kit from '@verify-kit/express';
import type { SameType } from '../support/same-type.js';

// #region status-bus
interface StatusHint {
  type?: string;
  documentSubmitted?: boolean;
  status?: string; // the event's status: one not APPROVED refuses until a read; never a grant
  occurredAt?: number; // when the event happened (epoch ms): a late review step never displaces a later read
} // JSON-serialisable
interface StatusBus {
  publish(identificationId: string, hint: StatusHint): void | Promise<void>;
  subscribe(listener: (identificationId: string, hint: StatusHint) => void): () => void; // -> unsubscribe
}
interface ReplayStore {
  claim(id: string, ttlSeconds: number): boolean | Promise<boolean>; // true: first time (accept)
}
// #endregion status-bus

export const readmeMatchesPackage: [
  SameType<StatusHint, kit.StatusHint>,
  SameType<StatusBus, kit.StatusBus>,
  SameType<ReplayStore, kit.ReplayStore>,
] = [true, true, true];

import type { VerificationBinding } from '../bindings/binding.js';
import type { RecordStore, StatusRecord } from '../bindings/binding-store.js';
import type { ResolvedRetention } from '../bindings/retention.js';
import type { ReplayStore } from '../webhooks/replay-store.js';

export const DAY_MS = 86_400_000;

/** What the rules run on, filled in before them (the store is made in beforeAll). */
export interface Subject {
  records: RecordStore;
  replay: ReplayStore | undefined;
  retention: ResolvedRetention;
  concurrency: number;
}

/** A key no other rule, run or store uses. */
export const unique = (prefix = 'contract:') => `${prefix}${crypto.randomUUID()}`;

const iso = (at: number) => new Date(at).toISOString();

/** A binding as the kit writes it, every optional field set (each must round-trip). */
export function aBinding(overrides: Partial<VerificationBinding> = {}): VerificationBinding {
  const id = crypto.randomUUID();
  return {
    verificationSessionId: `vs_${id}`,
    identificationId: id,
    deepLink: `idv://app-url/https://idv.example.com/verification-session/vs_${id}`,
    sessionCode: 'K7PX2QMR',
    sessionPageLink: `https://idv.example.com/public/verification-session/vs_${id}`,
    expiresAt: iso(Date.now() + 30 * 60_000),
    approvedAt: iso(Date.now()),
    proof: 'b3JjaGlkLXByb29mLW9mLWEtYmluZGluZy1zZWNyZXQ',
    ...overrides,
  };
}

/** A status record as the kit writes it, with fields a later kit may add (each must round-trip). */
export function aStatusRecord(status: string, overrides: Partial<StatusRecord> = {}): StatusRecord {
  const id = crypto.randomUUID();
  return {
    status,
    observedAt: Date.now(),
    accountId: 'account-ü-42',
    verificationSessionId: `vs_${id}`,
    expiresAt: iso(Date.now() + 30 * 60_000),
    identificationId: id.toUpperCase(),
    ...({
      previousStatus: 'IN_AUTOMATIC_REVIEW',
      delivery: { webhookId: `msg_${id}`, attempt: 2, at: Date.now() },
    } as object),
    ...overrides,
  };
}

/** `count` calls at once (none awaited before all have started); their answers in order. */
export function all<T>(count: number, call: (index: number) => T | Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, (_, index) => Promise.resolve().then(() => call(index))));
}

/** Resolves once `condition` holds, checked every 10 ms for up to 10 s; rejects naming `what` otherwise. */
export async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`never happened: ${what}`);
}

import { isApproved } from '@verify-kit/client/fetch';
import type { StoredDecision } from '../bindings/binding-store.js';

// What a stored decision (binding-store.ts) says, whichever store it came from.

/**
 * The `at` of a retired identification's decision (retire()): later than any read or event, so
 * newer-wins never lets a read that was under way, or a long-poll still polling, put it back.
 */
export const RETIRED_AT = Number.MAX_SAFE_INTEGER;
/** Refusals a verification does not go on from to APPROVED within seconds (a revocation's). */
const FINAL_REFUSALS: readonly string[] = ['REJECTED', 'RESUBMISSION_REQUIRED'];

/** A stored APPROVED, not retired: a verified person, whose reads go first (read-budget.ts). */
export function vouches(stored: StoredDecision | undefined): boolean {
  return stored?.status != null && isApproved(stored.status) && stored.at !== RETIRED_AT;
}

/**
 * The stored decision when a verified webhook refused with it (REJECTED, RESUBMISSION_REQUIRED);
 * not a review step, which webhooks delivered out of order may bring after an approval.
 */
export function verifiedRefusal(
  stored: StoredDecision | undefined,
): (StoredDecision & { status: string }) | undefined {
  if (stored?.source !== 'webhook' || stored.at === RETIRED_AT || stored.status === null) return undefined;
  return FINAL_REFUSALS.includes(stored.status) ? { ...stored, status: stored.status } : undefined;
}

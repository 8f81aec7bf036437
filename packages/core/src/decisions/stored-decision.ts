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

/** The steps of a review: an event of one says the review goes on, not how it ended. */
const REVIEW_STEPS: readonly string[] = ['IN_AUTOMATIC_REVIEW', 'IN_MANUAL_REVIEW'];
const REVIEW_STEP_EVENTS: readonly string[] = [
  'identification.created',
  'identification.submitted',
  'identification.in_automatic_review',
  'identification.in_manual_review',
];

/**
 * When a verified webhook's decision counts from. A review step (its event and the status it gives,
 * if any, both a step) counts from when it happened: delivered late, or retried, it never displaces a
 * decision the kit read after it. Anything else (a refusal, an event the kit does not know) counts
 * from its arrival: newer than any read already made, so a revocation never loses to a read that
 * lags it (the refusal hold, refusalSettleMs, does the rest).
 */
export function webhookDecisionAt(
  event: { type: string; status: string | null | undefined; occurredAt: number | undefined },
  now: number,
): number {
  const { type, status, occurredAt } = event;
  const step =
    REVIEW_STEP_EVENTS.includes(type) &&
    (status === undefined || (status !== null && REVIEW_STEPS.includes(status)));
  return step && occurredAt !== undefined && occurredAt < now ? occurredAt : now;
}

/** The newer of two decisions of one identification (the first on a tie): what stands. */
export function newerDecision(
  first: StoredDecision | undefined,
  second: StoredDecision | undefined,
): StoredDecision | undefined {
  if (first === undefined) return second;
  if (second === undefined) return first;
  return second.at > first.at ? second : first;
}

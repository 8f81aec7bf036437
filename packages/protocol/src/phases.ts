/** The kit's view of an identification, for people. */
export const PHASE = {
  /** The session is open: the person has not submitted a document yet. */
  AWAITING_USER: 'awaiting_user',
  /** The service is reviewing the document automatically. */
  IN_REVIEW: 'in_review',
  /** A person at the service reviews the document; this can take a while. */
  IN_MANUAL_REVIEW: 'in_manual_review',
  APPROVED: 'approved',
  REJECTED: 'rejected',
  /** The person must show a document again, in the same session while it lives. */
  RESUBMISSION_REQUIRED: 'resubmission_required',
  /** The session ended before a decision; a new session is needed. */
  EXPIRED: 'expired',
} as const;

export type Phase = (typeof PHASE)[keyof typeof PHASE];

export const PHASES: readonly Phase[] = Object.values(PHASE);

/** Phases after which nothing changes without a new session. */
export const FINAL_PHASES = [PHASE.APPROVED, PHASE.REJECTED, PHASE.EXPIRED] as const;

export type FinalPhase = (typeof FINAL_PHASES)[number];

export function isPhase(value: unknown): value is Phase {
  return typeof value === 'string' && (PHASES as readonly string[]).includes(value);
}

export function isFinalPhase(phase: unknown): phase is FinalPhase {
  return typeof phase === 'string' && (FINAL_PHASES as readonly string[]).includes(phase);
}

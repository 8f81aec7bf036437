import { IDENTIFICATION_STATUS } from '@verify-kit/client/fetch';
import { PHASE, type Phase } from '@verify-kit/protocol';

export interface PhaseInput {
  /** The upstream status, any string (unknown ones are never approved). */
  status: string;
  /** ISO 8601 end of the verification session. */
  expiresAt: string;
  /** true once the person submitted a document (upstream field or a verified webhook said so). */
  documentSubmitted: boolean;
  /** Epoch ms. */
  now: number;
  /** true when a verified webhook said the session was cancelled before expiresAt. */
  sessionEnded?: boolean;
}

/**
 * The kit's view of an identification for people (docs/architecture.md, "phase"). Pure: same input, same phase.
 * Expiry only matters while the person still has something to do in the session; a decision
 * (approved, rejected) outlives the session.
 */
export function phaseOf({
  status,
  expiresAt,
  documentSubmitted,
  now,
  sessionEnded = false,
}: PhaseInput): Phase {
  const expiry = Date.parse(expiresAt);
  const expired = sessionEnded || (Number.isFinite(expiry) && now >= expiry);
  switch (status) {
    case IDENTIFICATION_STATUS.APPROVED:
      return PHASE.APPROVED;
    case IDENTIFICATION_STATUS.REJECTED:
      return PHASE.REJECTED;
    case IDENTIFICATION_STATUS.RESUBMISSION_REQUIRED:
      return expired ? PHASE.EXPIRED : PHASE.RESUBMISSION_REQUIRED;
    case IDENTIFICATION_STATUS.IN_MANUAL_REVIEW:
      return PHASE.IN_MANUAL_REVIEW;
    case IDENTIFICATION_STATUS.IN_AUTOMATIC_REVIEW:
      if (documentSubmitted) return PHASE.IN_REVIEW;
      return expired ? PHASE.EXPIRED : PHASE.AWAITING_USER;
    default:
      // A status this kit does not know: never approved; somebody is presumably looking at it.
      return expired && !documentSubmitted ? PHASE.EXPIRED : PHASE.IN_REVIEW;
  }
}

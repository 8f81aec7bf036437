import {
  type ApprovalCriterion,
  IDENTIFICATION_STATUS,
  type KnownIdentificationStatus,
  matchCriterion,
} from '@verify-kit/client';
import { documentFields, type Scenario, type SubmittedDocument } from './documents.js';

export interface ReviewOutcome {
  status: KnownIdentificationStatus;
  /** The criteria the document did not meet. */
  unmet: ApprovalCriterion[];
}

const BY_SCENARIO: Record<Scenario, KnownIdentificationStatus> = {
  approve: IDENTIFICATION_STATUS.APPROVED,
  manual_review: IDENTIFICATION_STATUS.IN_MANUAL_REVIEW,
  resubmit: IDENTIFICATION_STATUS.RESUBMISSION_REQUIRED,
  reject: IDENTIFICATION_STATUS.REJECTED,
  processing_error: IDENTIFICATION_STATUS.RESUBMISSION_REQUIRED,
};

/**
 * The automatic review (docs/architecture.md, decision 2): an unmet `rejectIfNotMet` criterion rejects; otherwise
 * the scenario decides, except that an unmet criterion without `rejectIfNotMet` keeps an `approve`
 * from being automatic and sends the identification to manual review.
 */
export function reviewDocument(
  criteria: readonly ApprovalCriterion[],
  doc: SubmittedDocument,
  scenario: Scenario,
): ReviewOutcome {
  const fields = documentFields(doc);
  const unmet = criteria.filter((c) => !matchCriterion(c, fields));
  if (unmet.some((c) => c.rejectIfNotMet === true)) return { status: IDENTIFICATION_STATUS.REJECTED, unmet };
  const status = BY_SCENARIO[scenario];
  if (status === IDENTIFICATION_STATUS.APPROVED && unmet.length > 0) {
    return { status: IDENTIFICATION_STATUS.IN_MANUAL_REVIEW, unmet };
  }
  return { status, unmet };
}

import { IDENTIFICATION_STATUS } from '@verify-kit/client';
import { z } from 'zod';

/* Bodies of the control API's calls that change a session (packages/sandbox/README.md). */

export const OtpBodySchema = z.strictObject({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'code must be the 6 digits that were sent'),
});
export const DecisionBodySchema = z.strictObject({
  status: z.enum([
    IDENTIFICATION_STATUS.APPROVED,
    IDENTIFICATION_STATUS.REJECTED,
    IDENTIFICATION_STATUS.RESUBMISSION_REQUIRED,
  ]),
});
export const SetStatusBodySchema = z.strictObject({
  status: z.enum([
    IDENTIFICATION_STATUS.IN_AUTOMATIC_REVIEW,
    IDENTIFICATION_STATUS.IN_MANUAL_REVIEW,
    IDENTIFICATION_STATUS.APPROVED,
    IDENTIFICATION_STATUS.REJECTED,
    IDENTIFICATION_STATUS.RESUBMISSION_REQUIRED,
  ]),
});

/** What a reviewer may decide on an identification in manual review. */
export type DecisionStatus = z.output<typeof DecisionBodySchema>['status'];
/** What a tester may set from any state. */
export type OverrideStatus = z.output<typeof SetStatusBodySchema>['status'];

import type { VerifyKit } from '@verify-kit/express';
import { createSandboxControl, type SandboxControlOptions } from '@verify-kit/sandbox/control';
import { Router } from 'express';
import { z } from 'zod';
import { requireSignedIn } from './demo-api.js';
import { sendError, sendValidationError } from './http-errors.js';
import { plainIssue } from './plain-issues.js';

/*
 * The sandbox's reviewer, from the verify page's phone panel: POST /api/demo/review decides the
 * verification bound to the signed-in account while a person at the service would be checking it
 * (in_manual_review). The browser names only the decision; which verification is the kit's answer
 * for this account, never an id the browser sends. The sandbox's API key stays in this process.
 */

const DecisionSchema = z.strictObject({
  decision: z.enum(['APPROVED', 'REJECTED', 'RESUBMISSION_REQUIRED']),
});

export interface ReviewerApiOptions {
  kit: Pick<VerifyKit, 'statusOfAccount'>;
  /** The embedded sandbox's control API; undefined against a real service (its reviewers decide). */
  sandbox: SandboxControlOptions | undefined;
}

export function reviewerApi({ kit, sandbox }: ReviewerApiOptions): Router {
  const router = Router();
  const control = sandbox === undefined ? undefined : createSandboxControl(sandbox);

  router.post('/review', requireSignedIn, async (req, res) => {
    if (control === undefined) {
      return sendError(res, 404, 'NO_SIMULATOR', 'this demo talks to a real service: its reviewers decide');
    }
    const parsed = DecisionSchema.safeParse(req.body ?? {}, { error: plainIssue });
    if (!parsed.success) return sendValidationError(res, parsed.error);
    const account = await kit.statusOfAccount(String(req.session.userId));
    if (account === undefined) {
      return sendError(res, 404, 'NO_SESSION', 'no verification has been started yet');
    }
    if (account.phase !== 'in_manual_review') {
      return sendError(res, 409, 'NOT_IN_MANUAL_REVIEW', 'this verification is not waiting for a reviewer');
    }
    const decided = await control.decide(account.identificationId, parsed.data.decision);
    res.json({ status: decided.status });
  });

  return router;
}

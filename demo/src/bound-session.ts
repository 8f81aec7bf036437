import type { VerificationBinding } from '@verify-kit/express';
import type { Request } from 'express';
import type { BoundSession } from './demo-api.js';

/**
 * The verification the kit bound to this browser session (it keeps it in `req.session.verifyKit`).
 * The demo reads only the two ids, for the simulator's address and the activity log.
 */
export function boundSessionOf(req: Request): BoundSession | undefined {
  const binding = (req.session as { verifyKit?: Partial<VerificationBinding> } | undefined)?.verifyKit;
  if (typeof binding?.verificationSessionId !== 'string' || typeof binding.identificationId !== 'string') {
    return undefined;
  }
  return { verificationSessionId: binding.verificationSessionId, identificationId: binding.identificationId };
}

import { VerifyKitError } from '@verify-kit/client';
import { ERROR_CODE } from '@verify-kit/core/internal/shared/errors';
import type { Request } from 'express';
import { endedMeanwhile } from './ended-session.js';
import { type KitSession, sessionOf } from './express-session.js';

type SessionRequest = Request & { sessionID: string; session: KitSession };

function callback(run: (done: (err?: unknown) => void) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    run((err) => (err ? reject(err) : resolve()));
  });
}

/** false when the session middleware cannot regenerate (not express-session): nothing to move. */
function canRotate(session: Partial<KitSession>): boolean {
  return typeof session.regenerate === 'function' && typeof session.save === 'function';
}

/** The session's data without its cookie and the kit's binding, to carry over to a new id. */
function integratorData(session: KitSession): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(session)) {
    if (key !== 'cookie' && key !== 'verifyKit') kept[key] = value;
  }
  return kept;
}

/**
 * Moves this one request's session to a new id (session fixation), with `patch` applied: the new
 * cookie goes out on this response only. The integrator's data moves with it and the old id is
 * destroyed in the store, so it never outlives the new one: after the person signs out, no earlier
 * id is still signed in. A request of the same browser already in flight keeps the copy it loaded;
 * one sent with the old cookie after the move finds no session (bindings.ts keeps concurrent
 * approvals from moving twice). Not kept for a grace: express-session's touch() at the end of any
 * request on the old id would renew it to a full lifetime. No other request is ever handed the new id.
 *
 * A session that ended while this request ran (the person signed out in another tab) is not moved:
 * carrying its data to a new id would sign the person in again. Answers false then, having written
 * nothing; true once moved.
 */
export async function moveSession(req: Request, patch: (session: KitSession) => void): Promise<boolean> {
  const session = sessionOf(req);
  if (!canRotate(session)) {
    patch(session);
    return true;
  }
  const sreq = req as SessionRequest;
  const kept = integratorData(session);
  try {
    if (await endedMeanwhile(req)) return false;
    // regenerate() destroys the old id in the store, then gives this request a new, empty session.
    await callback((done) => sreq.session.regenerate(done));
    Object.assign(sreq.session, kept);
    patch(sreq.session);
    await callback((done) => sreq.session.save(done));
    return true;
  } catch (cause) {
    throw new VerifyKitError(ERROR_CODE.SESSION_STORE_ERROR, 'the session store failed to save the session', {
      cause,
    });
  }
}

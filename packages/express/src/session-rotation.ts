import { VerifyKitError } from '@verify-kit/client';
import type { Request } from 'express';
import type { Store } from 'express-session';
import { type KitSession, sessionOf } from './binding.js';
import { ERROR_CODE } from './errors.js';

type SessionRequest = Request & { sessionID: string; sessionStore?: Store; session: KitSession };

function callback(run: (done: (err?: unknown) => void) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    run((err) => (err ? reject(err) : resolve()));
  });
}

/** false when the session middleware cannot regenerate (not express-session): nothing to move. */
function canRotate(session: Partial<KitSession>): boolean {
  return typeof session.regenerate === 'function' && typeof session.save === 'function';
}

/** The kit's id of this browser for its creation limit (routes/session.ts): moves, but is not the app's. */
const KIT_CLIENT_KEY = 'verifyKitClient';

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
 * cookie goes out on this response only. Whoever holds the old id keeps the integrator's data on it
 * (a tab of the same browser still in flight is not signed out) but never the kit's binding; an old
 * session without integrator data is destroyed. No other request is ever handed the new id.
 */
export async function moveSession(req: Request, patch: (session: KitSession) => void): Promise<void> {
  const session = sessionOf(req);
  if (!canRotate(session)) {
    patch(session);
    return;
  }
  const sreq = req as SessionRequest;
  const kept = integratorData(session);
  const generate = sreq.sessionStore?.generate;
  try {
    // With nothing of the integrator's on it, the old session is destroyed rather than left to expire.
    if (typeof generate === 'function' && Object.keys(kept).some((key) => key !== KIT_CLIENT_KEY)) {
      delete sreq.session.verifyKit;
      await callback((done) => sreq.session.save(done));
      generate.call(sreq.sessionStore, sreq);
    } else {
      await callback((done) => sreq.session.regenerate(done));
    }
    Object.assign(sreq.session, kept);
    patch(sreq.session);
    await callback((done) => sreq.session.save(done));
  } catch (cause) {
    throw new VerifyKitError(ERROR_CODE.SESSION_STORE_ERROR, 'the session store failed to save the session', {
      cause,
    });
  }
}

import { parseBinding, type VerificationBinding } from '@verify-kit/core/internal/bindings/binding';
import { ERROR_CODE, kitError } from '@verify-kit/core/internal/shared/errors';
import type { Request } from 'express';
import type { Session, SessionData } from 'express-session';

declare module 'express-session' {
  interface SessionData {
    verifyKit?: VerificationBinding;
  }
}

export type KitSession = Session & Partial<SessionData>;

export const SESSION_MIDDLEWARE_MISSING_MESSAGE =
  'req.session is undefined: mount express-session before verify-kit, e.g. ' +
  "app.use(session({ secret, resave: false, saveUninitialized: false })) before app.use('/identity', kit.router) " +
  'and before kit.requireApproved() (or the session store is disconnected)';

/** req.session, or a SESSION_MIDDLEWARE_MISSING error naming the fix. */
export function sessionOf(req: Request): KitSession {
  const session = (req as Request & { session?: KitSession }).session;
  if (session === undefined || session === null || typeof session !== 'object') {
    throw kitError(ERROR_CODE.SESSION_MIDDLEWARE_MISSING, SESSION_MIDDLEWARE_MISSING_MESSAGE);
  }
  return session;
}

/** The binding this browser session holds, proven or not (bindings.ts decides whether it counts). */
export function readSessionBinding(req: Request): VerificationBinding | undefined {
  return parseBinding(sessionOf(req).verifyKit);
}

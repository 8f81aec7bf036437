import type { Request } from 'express';
import type { Session, SessionData } from 'express-session';
import { z } from 'zod';
import { ERROR_CODE, kitError } from '../shared/errors.js';

/** What the kit keeps in the user's express-session: no key, no personal data. */
export interface VerificationBinding {
  verificationSessionId: string;
  identificationId: string;
  deepLink: string;
  sessionCode: string;
  sessionPageLink: string;
  /** ISO 8601 end of the verification session. */
  expiresAt: string;
  /** ISO 8601; set once the session id was regenerated after the first approval (fixation). */
  approvedAt?: string;
  /** SHA-256 of the binding secret (binding-proof.ts); anonymous bindings only. */
  proof?: string;
}

declare module 'express-session' {
  interface SessionData {
    verifyKit?: VerificationBinding;
  }
}

// Store contents are data from outside the process: checked before use.
const BindingSchema = z.object({
  verificationSessionId: z.string().min(1),
  identificationId: z.string().min(1),
  deepLink: z.string().min(1),
  sessionCode: z.string().min(1),
  sessionPageLink: z.string().min(1),
  expiresAt: z.string().min(1),
  approvedAt: z.string().optional(),
  proof: z.string().optional(),
});

/** A binding read from a store (outside data): the binding, or undefined when it is not one. */
export function parseBinding(value: unknown): VerificationBinding | undefined {
  const parsed = BindingSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
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

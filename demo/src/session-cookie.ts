import type { Request, RequestHandler } from 'express';
import session, { type Store } from 'express-session';

/** The session cookie over plain http (a laptop on localhost). */
export const SESSION_COOKIE_NAME = 'verify-kit-demo.sid';
/**
 * Over https: the browser accepts a `__Host-` cookie only when Secure, Path=/ and without Domain,
 * so no sibling subdomain and no plain-http page can plant a signed-in session (login fixation).
 */
export const SECURE_SESSION_COOKIE_NAME = `__Host-${SESSION_COOKIE_NAME}`;

export function sessionCookieName(req: Request): string {
  return req.secure ? SECURE_SESSION_COOKIE_NAME : SESSION_COOKIE_NAME;
}

export interface DemoSessionOptions {
  secret: string;
  store: Store | undefined;
  maxAgeMs: number;
}

/**
 * express-session as its README recommends (a secret, no resave, no empty sessions, httpOnly,
 * SameSite=Lax), with one cookie per scheme: over https only the `__Host-` cookie is read or set, so
 * a session cookie planted by a subdomain or over http is never a session here.
 */
export function demoSession(options: DemoSessionOptions): RequestHandler {
  // One store for both (express-session would give each its own MemoryStore), seen through a view
  // per middleware: express-session writes its cookie settings onto the store it is given
  // (`store.generate`, used by regenerate), and each must keep its own.
  const store = options.store ?? new session.MemoryStore();
  const common = { secret: options.secret, resave: false, saveUninitialized: false };
  const cookie = { httpOnly: true, sameSite: 'lax' as const, path: '/', maxAge: options.maxAgeMs };
  const overHttps = session({
    ...common,
    store: Object.create(store) as Store,
    name: SECURE_SESSION_COOKIE_NAME,
    cookie: { ...cookie, secure: true },
  });
  const overHttp = session({
    ...common,
    store: Object.create(store) as Store,
    name: SESSION_COOKIE_NAME,
    cookie: { ...cookie, secure: false },
  });
  return (req, res, next) => (req.secure ? overHttps : overHttp)(req, res, next);
}

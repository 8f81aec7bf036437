import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';

/**
 * The demo's own long-lived cookie: a random id only this browser holds. Demo accounts are keyed on
 * it with the typed e-mail (bound-session.ts), so typing somebody else's e-mail at sign-in opens a
 * new, empty account in your browser, never theirs. Apart from the session cookie (session-cookie.ts),
 * it survives sign-out: signing in again in the same browser finds the same verified account.
 */
export const BROWSER_COOKIE_NAME = 'verify-kit-demo.browser';
/** Over https: `__Host-` (Secure, Path=/, no Domain), so no subdomain or plain-http page can plant one. */
export const SECURE_BROWSER_COOKIE_NAME = `__Host-${BROWSER_COOKIE_NAME}`;

const ONE_YEAR_MS = 365 * 24 * 3600 * 1000;
const BROWSER_ID = /^[A-Za-z0-9_-]{43}$/;

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

/** This browser's id; a new one (32 random bytes) is set on `res` when it has none. */
export function browserIdOf(req: Request, res: Response): string {
  const name = req.secure ? SECURE_BROWSER_COOKIE_NAME : BROWSER_COOKIE_NAME;
  const held = readCookie(req.headers.cookie, name);
  if (held !== undefined && BROWSER_ID.test(held)) return held;
  const id = randomBytes(32).toString('base64url');
  res.cookie(name, id, {
    httpOnly: true,
    sameSite: 'lax',
    secure: req.secure,
    path: '/',
    maxAge: ONE_YEAR_MS,
  });
  return id;
}

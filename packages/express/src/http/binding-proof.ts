import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import type { KitSession } from './express-session.js';

/**
 * The binding secret (session fixation): an anonymous verification is proven by an HttpOnly cookie
 * set only on the response that created it; the binding keeps its SHA-256. Whoever plants or learns
 * the session id alone holds no verification. Over https the cookie is `__Host-` prefixed (no
 * subdomain or plain-http page can set it) and only that name is read.
 */
export const PROOF_COOKIE = 'vk_binding';
const SECURE_PROOF_COOKIE = `__Host-${PROOF_COOKIE}`;
/** Browsers cap a cookie's life at 400 days. */
const MAX_COOKIE_AGE_SECONDS = 400 * 24 * 3600;

function cookieName(req: Request): string {
  return req.secure ? SECURE_PROOF_COOKIE : PROOF_COOKIE;
}

function hashOf(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

/** The proof cookie's value in this request (the first of that name), or undefined. */
function presented(req: Request): string | undefined {
  const name = `${cookieName(req)}=`;
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const pair = part.trim();
    if (pair.startsWith(name)) return pair.slice(name.length);
  }
  return undefined;
}

/** true when the request carries the secret whose hash is `proof`. */
export function proves(req: Request, proof: string | undefined): boolean {
  const secret = presented(req);
  if (proof === undefined || secret === undefined || secret.length === 0) return false;
  const expected = Buffer.from(proof);
  const actual = Buffer.from(hashOf(secret));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** A new secret: sets its cookie on `res`; returns the hash to store with the binding. */
export function issueProof(req: Request, res: Response, session: KitSession): string {
  const secret = randomBytes(32).toString('base64url');
  // As long-lived as the session cookie: a browser-session cookie when it is one.
  const persistent = typeof session.cookie?.maxAge === 'number' && session.cookie.maxAge > 0;
  res.cookie(cookieName(req), secret, {
    httpOnly: true,
    sameSite: 'lax',
    secure: req.secure,
    path: '/',
    ...(persistent ? { maxAge: MAX_COOKIE_AGE_SECONDS * 1000 } : {}),
  });
  return hashOf(secret);
}

/** Deletes the proof cookie (kit.forget). */
export function clearProof(req: Request, res: Response): void {
  res.clearCookie(cookieName(req), { httpOnly: true, sameSite: 'lax', secure: req.secure, path: '/' });
}

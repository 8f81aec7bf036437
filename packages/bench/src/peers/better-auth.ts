import { randomBytes } from 'node:crypto';
import { betterAuth } from 'better-auth';
import { memoryAdapter } from 'better-auth/adapters/memory';
import { fromNodeHeaders } from 'better-auth/node';
import type { RequestHandler } from 'express';
import type { MiddlewareHandler } from 'hono';
import { cookieHeaderOf, type Peer, unauthorized } from './peer.js';

/**
 * Better Auth with its cookie cache (`session.cookieCache`): besides the signed session-token cookie
 * (HMAC-SHA-256), a signed cookie carries the session and the user, so `auth.api.getSession({ headers
 * })` checks both signatures and the cache's expiry and answers without a database read. The
 * database is its memory adapter (read only at sign-up here). On Hono with `c.req.raw.headers`, on
 * Express with `fromNodeHeaders(req.headers)` (`better-auth/node`), as its docs show each.
 */
export function betterAuthPeer(): Peer {
  const db: Record<string, unknown[]> = { user: [], session: [], account: [], verification: [] };
  const auth = betterAuth({
    secret: randomBytes(32).toString('base64url'),
    baseURL: 'http://127.0.0.1',
    database: memoryAdapter(db),
    emailAndPassword: { enabled: true },
    // The cache outlives the run, so every gated request is answered from it.
    session: { cookieCache: { enabled: true, maxAge: 3600 } },
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    logger: { disabled: true },
  });
  const signedIn = async (headers: Headers) => (await auth.api.getSession({ headers })) !== null;
  const hono: MiddlewareHandler = async (c, next) => {
    if (!(await signedIn(c.req.raw.headers))) return unauthorized();
    await next();
  };
  const express: RequestHandler = (req, res, next) => {
    signedIn(fromNodeHeaders(req.headers)).then(
      (yes) => (yes ? next() : res.status(401).send('Unauthorized')),
      next,
    );
  };
  return {
    async cookies(count) {
      const cookies: string[] = [];
      for (let i = 0; i < count; i++) {
        const body = {
          email: `person${i}@example.com`,
          password: `bench-password-${i}`,
          name: `Person ${i}`,
        };
        const { headers } = await auth.api.signUpEmail({ body, returnHeaders: true });
        cookies.push(cookieHeaderOf(headers.getSetCookie()));
      }
      return cookies;
    },
    hono,
    express,
    fetch: async (request) => ((await signedIn(request.headers)) ? undefined : unauthorized()),
  };
}

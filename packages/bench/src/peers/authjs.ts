import { randomBytes } from 'node:crypto';
import { Auth, type AuthConfig } from '@auth/core';
import { encode } from '@auth/core/jwt';
import Credentials from '@auth/core/providers/credentials';
import { getSession } from '@auth/express';
import { initAuthConfig, verifyAuth } from '@hono/auth-js';
import type { RequestHandler } from 'express';
import type { MiddlewareHandler } from 'hono';
import { type Peer, unauthorized } from './peer.js';

/** Auth.js's session cookie over http (`__Secure-authjs.session-token` over https); also the JWE's salt. */
const SESSION_COOKIE = 'authjs.session-token';
const BASE_PATH = '/auth';

/**
 * Auth.js (`@auth/core`) with its default JWT strategy: the session is a JWE (A256CBC-HS512, the key
 * derived from the secret by HKDF with the cookie's name as salt) in the session cookie. A gated
 * request is read as its integrations read it: `@hono/auth-js`'s `verifyAuth()` and
 * `@auth/express`'s `getSession(req, config)` both send a `GET <basePath>/session` with the
 * request's cookies through `Auth()`, which decrypts the cookie, runs the jwt and session callbacks,
 * and re-encrypts the token with a new expiry into a new Set-Cookie (the rolling session). On a bare
 * Fetch server the same call. The cookies are made as Auth.js makes them at sign-in (`encode`).
 */
export function authJs(): Peer {
  const secret = randomBytes(32).toString('base64url');
  const config: AuthConfig = {
    secret,
    basePath: BASE_PATH,
    trustHost: true,
    session: { strategy: 'jwt' },
    // A sign-in method is required; none is used (the people are signed in already).
    providers: [Credentials({ credentials: {}, authorize: () => null })],
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
  };
  const signedIn = async (request: Request) => {
    const { origin } = new URL(request.url);
    const session = new Request(`${origin}${BASE_PATH}/session`, {
      headers: { cookie: request.headers.get('cookie') ?? '' },
    });
    const data = (await (await Auth(session, config)).json()) as { user?: unknown } | null;
    return data?.user !== undefined;
  };
  const express: RequestHandler = (req, res, next) => {
    getSession(req, config).then(
      (session) => (session?.user ? next() : res.status(401).send('Unauthorized')),
      next,
    );
  };
  const init = initAuthConfig(() => config);
  const verify = verifyAuth();
  const hono: MiddlewareHandler = (c, next) =>
    init(c, async () => {
      await verify(c, next);
    });
  return {
    async cookies(count) {
      return Promise.all(
        Array.from({ length: count }, async (_, i) => {
          const token = { sub: `user-${i}`, name: `Person ${i}`, email: `person${i}@example.com` };
          return `${SESSION_COOKIE}=${await encode({ token, secret, salt: SESSION_COOKIE })}`;
        }),
      );
    },
    hono,
    express,
    fetch: async (request) => ((await signedIn(request)) ? undefined : unauthorized()),
  };
}

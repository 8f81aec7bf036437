import { generateKeyPairSync, sign } from 'node:crypto';
import { createClerkClient } from '@clerk/backend';
import type { RequestHandler } from 'express';
import type { MiddlewareHandler } from 'hono';
import { type Peer, unauthorized, webRequestOf } from './peer.js';

/** The bench's own Clerk instance, as a production one is named (`pk_live_` + its Frontend API host). */
const FRONTEND_API = 'clerk.verify-kit-bench.example';
const ISSUER = `https://${FRONTEND_API}`;
const KEY_ID = 'ins_bench';
/** A session token lives 60 s at Clerk (the browser refreshes it); longer here, to outlast the run. */
const TOKEN_SECONDS = 3600;

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/**
 * Clerk (`@clerk/backend`): `authenticateRequest(request, { jwtKey })` verifies the session token
 * networklessly: the `__session` cookie's RS256 JWT checked against the instance's PEM public key
 * (`jwtKey`, a key pair the bench makes), its time claims and issuer, with the `__client_uat`
 * cookie's handshake rules. On Hono with `c.req.raw` (as `@hono/clerk-auth` does), on Express with a
 * `Request` of the request's URL and headers (as `@clerk/express` does), on Fetch with the request.
 */
export function clerk(): Peer {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwtKey = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const publishableKey = `pk_live_${Buffer.from(`${FRONTEND_API}$`).toString('base64')}`;
  const secretKey = 'sk_live_verify_kit_bench_offline';
  const client = createClerkClient({ secretKey, publishableKey, jwtKey });
  const signedIn = async (request: Request) =>
    (await client.authenticateRequest(request, { jwtKey, secretKey, publishableKey })).isAuthenticated;
  const hono: MiddlewareHandler = async (c, next) => {
    if (!(await signedIn(c.req.raw))) return unauthorized();
    await next();
  };
  const express: RequestHandler = (req, res, next) => {
    signedIn(webRequestOf(req)).then((yes) => (yes ? next() : res.status(401).send('Unauthorized')), next);
  };
  /** A session token as Clerk's Frontend API issues one (v2 claims), signed with the instance's key. */
  const token = (i: number, iat: number) => {
    const header = base64url(JSON.stringify({ alg: 'RS256', kid: KEY_ID, typ: 'JWT' }));
    const claims = {
      azp: 'http://127.0.0.1',
      exp: iat + TOKEN_SECONDS,
      iat,
      iss: ISSUER,
      nbf: iat - 10,
      sid: `sess_bench${i}`,
      sub: `user_bench${i}`,
      v: 2,
    };
    const payload = base64url(JSON.stringify(claims));
    const signature = sign('RSA-SHA256', Buffer.from(`${header}.${payload}`), privateKey);
    return `${header}.${payload}.${base64url(signature)}`;
  };
  return {
    async cookies(count) {
      const iat = Math.floor(Date.now() / 1000);
      return Array.from({ length: count }, (_, i) => `__client_uat=${iat}; __session=${token(i, iat)}`);
    },
    hono,
    express,
    fetch: async (request) => ((await signedIn(request)) ? undefined : unauthorized()),
  };
}

import type { FetchContext } from '@verify-kit/testkit';
import { type GateRules, isVerifyKitError, readCookie, type VerifyKit } from '../../src/index.js';

// An integrator's Fetch server, as the Fetch door's tests (and their child-process instances) run it.

const ACCOUNT: GateRules = { redirectTo: '/verify' };

/** The account the app's test sign-in (`POST /login?user=…`) put in its `user` cookie: accountOf's. */
export const userOf = (request: Request) => readCookie(request.headers, 'user', { secure: false });

/** Whether each request's body had been read when the gate returned (it must never have been). */
export const bodyUsedAfterGate: boolean[] = [];

function json(value: unknown, status: number, headers = new Headers()): Response {
  headers.set('content-type', 'application/json; charset=utf-8');
  return new Response(JSON.stringify(value), { status, headers });
}

/**
 * The kit under /identity, `/account` gated with redirectTo, every other path gated without,
 * `/custom` on statusOf (`/custom-dropping-headers` drops its headers, as an app may),
 * `POST /forget` on forget and the test sign-in `POST /login?user=…` (a cookie userOf reads). `beforeGate` is told of each gated request as it reaches the gate.
 */
export function appOf(kit: VerifyKit, beforeGate: () => void = () => {}) {
  return async (request: Request, context: FetchContext): Promise<Response> => {
    const { pathname } = new URL(request.url);
    if (pathname.startsWith('/identity/')) return kit.handle(request, context);
    if (pathname === '/login' && request.method === 'POST') {
      const user = encodeURIComponent(new URL(request.url).searchParams.get('user') ?? '');
      return json({ ok: true }, 200, new Headers({ 'set-cookie': `user=${user}; Path=/; HttpOnly` }));
    }
    if (pathname === '/forget' && request.method === 'POST') {
      return json({ forgotten: true }, 200, (await kit.forget(request, context)).headers);
    }
    if (pathname === '/custom' || pathname === '/custom-dropping-headers') {
      try {
        const { headers, ...result } = await kit.statusOf(request, undefined, context);
        return json(result, 200, pathname === '/custom' ? headers : undefined);
      } catch (error) {
        return json({ code: isVerifyKitError(error) ? error.code : 'unknown' }, 503);
      }
    }
    beforeGate();
    const result = await kit.gate(request, pathname === '/account' ? ACCOUNT : undefined, context);
    bodyUsedAfterGate.push(request.bodyUsed);
    if (result.kind !== 'granted') return result.response;
    const body = request.method === 'POST' ? { body: await request.text() } : {};
    return json({ gated: pathname, ...body }, 200, result.headers);
  };
}

// The third red team's four findings (issue 33) on core's Fetch door, over real HTTP: the kit
// served by testkit's Node bridge (serveFetch, which hands the gate the socket's address), the same
// suites the Express shell runs (testkit's red-team.ts): a status-poll flood from two addresses
// against a sandbox limited to 40 calls/s, send points, a 404 inside a visit, a revocation against
// reads lagging 1.5 s.
import {
  describeDefinitiveAnswers,
  describeReadFlood,
  describeSendPoints,
  type FetchContext,
  gatedAppAt,
  redTeamKitOptions,
  type StartApp,
  serveFetch,
} from '@verify-kit/testkit';
import { createVerifyKit, readCookie, type VerifyKit } from '../src/index.js';

const SECRET = 'red-team-test-secret-0123456789abcdefghij';
const ACCOUNT = { redirectTo: '/verify' };

/** The account the app's test sign-in put in its `user` cookie. */
const userOf = (request: Request) => readCookie(request.headers, 'user', { secure: false });

/**
 * An integrator's Fetch server: the kit under /identity, `/account` gated with redirectTo, every
 * other path gated without, and the test sign-in `POST /login?user=…` (a cookie accountOf reads).
 */
function appOf(kit: VerifyKit) {
  return async (request: Request, context: FetchContext): Promise<Response> => {
    const url = new URL(request.url);
    if (url.pathname.startsWith('/identity/')) return kit.handle(request, context);
    if (url.pathname === '/login' && request.method === 'POST') {
      const user = encodeURIComponent(url.searchParams.get('user') ?? '');
      return Response.json({ ok: true }, { headers: { 'set-cookie': `user=${user}; Path=/; HttpOnly` } });
    }
    const result = await kit.gate(request, url.pathname === '/account' ? ACCOUNT : undefined, context);
    if (result.kind !== 'granted') return result.response;
    return Response.json({ gated: url.pathname }, { headers: result.headers });
  };
}

const start: StartApp = async (options) => {
  const kit = createVerifyKit({
    basePath: '/identity',
    secret: SECRET,
    ...redTeamKitOptions(options, userOf),
  });
  const server = await serveFetch(appOf(kit));
  return gatedAppAt(server.url, kit, server);
};

describeReadFlood('sk_test_fetch_read_budget_41d7', start);
describeSendPoints('sk_test_fetch_send_points_8a20', start);
describeDefinitiveAnswers('sk_test_fetch_definitive_c35e', start);

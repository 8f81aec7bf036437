// The third red team's four findings (issue 33) on the Hono shell, over real HTTP: a Hono app on
// @hono/node-server, its client address the shell's own (the Node socket's), the same suites the
// Express shell runs (testkit's red-team.ts): a status-poll flood from two addresses against a
// sandbox limited to 40 calls/s (the flood is counted at its own addresses only if the shell passes
// the socket's), send points, a 404 inside a visit, a revocation against reads lagging 1.5 s.
import {
  describeDefinitiveAnswers,
  describeReadFlood,
  describeSendPoints,
  gatedAppAt,
  redTeamKitOptions,
  type StartApp,
} from '@verify-kit/testkit';
import { type Context, Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { createVerifyKit } from '../src/index.js';
import { serveApp } from './support/serve.js';

const SECRET = 'a-test-secret-of-at-least-32-characters!';

/** The account the app's test sign-in put in its `user` cookie. */
const userOf = (c: Context) => getCookie(c, 'user');

const start: StartApp = async (options) => {
  const kit = createVerifyKit({ secret: SECRET, ...redTeamKitOptions(options, userOf) });
  const app = new Hono();
  app.post('/login', (c) => {
    setCookie(c, 'user', c.req.query('user') ?? '', { path: '/', httpOnly: true });
    return c.json({ ok: true });
  });
  app.route('/identity', kit.router);
  app.get('/account', kit.requireApproved({ redirectTo: '/verify' }), (c) => c.json({ account: 'welcome' }));
  app.get('/api/data', kit.requireApproved(), (c) => c.json({ data: 'gated' }));
  const served = await serveApp(app);
  return gatedAppAt(served.url, served, kit);
};

describeReadFlood('sk_test_hono_read_budget_93fa', start);
describeSendPoints('sk_test_hono_send_points_5e61', start);
describeDefinitiveAnswers('sk_test_hono_definitive_0b7c', start);

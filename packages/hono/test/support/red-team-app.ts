import { gatedAppAt, redTeamKitOptions, type StartApp } from '@verify-kit/testkit';
import { type Context, Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { createVerifyKit } from '../../src/index.js';
import { serveApp } from './serve.js';

// The red team's app on Hono (testkit's StartApp), for red-team.test.ts and read-flood.test.ts.

const SECRET = 'a-test-secret-of-at-least-32-characters!';

/** The account the app's test sign-in put in its `user` cookie. */
const userOf = (c: Context) => getCookie(c, 'user');

export const startRedTeamApp: StartApp = async (options) => {
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

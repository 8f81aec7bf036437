// One instance of a Hono app (the README's, on @hono/node-server) in a process of its own
// (testkit's startInstanceProcess): the kit from the environment, no store but its own memory.
import { serve } from '@hono/node-server';
import { announceListening, kitOptionsFromEnv } from '@verify-kit/testkit';
import { Hono } from 'hono';
import { createVerifyKit } from '../../src/index.js';

const kit = createVerifyKit(kitOptionsFromEnv());
const app = new Hono();
app.route('/identity', kit.router);
app.get('/account', kit.requireApproved({ redirectTo: '/verify' }), (c) => c.json({ gated: '/account' }));
app.all('/api/*', kit.requireApproved(), (c) => c.json({ gated: c.req.path }));
app.get('/custom', async (c) => c.json(await kit.statusOf(c)));
app.post('/forget', async (c) => {
  await kit.forget(c);
  return c.json({ forgotten: true });
});
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
  announceListening(`http://127.0.0.1:${info.port}`),
);
process.once('SIGTERM', () => {
  void kit.close().then(() => server.close(() => process.exit(0)));
});

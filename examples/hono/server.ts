import { serve } from '@hono/node-server';
import { createVerifyKit } from '@verify-kit/hono';
import { Hono } from 'hono';

const kit = createVerifyKit({
  baseUrl: process.env.IDV_BASE_URL!, // e.g. http://127.0.0.1:4010 for `npx verify-kit-sandbox`
  apiKey: process.env.IDV_API_KEY!,
  workflowId: 'default',
  webhookSecret: process.env.IDV_WEBHOOK_SECRET,
  secret: process.env.VERIFY_KIT_SECRET!, // seals the anonymous visitor's cookie: 32+ random characters
});

const app = new Hono();
app.route('/identity', kit.router); // the widget's routes and the webhook, under basePath '/identity'
// Not approved (or no verification yet): a page is redirected to /verify, an API call gets 403 JSON.
app.get('/account', kit.requireApproved({ redirectTo: '/verify' }), (c) => c.text('welcome'));
app.get('/verify', (c) =>
  c.html(
    '<script type="module" src="/assets/verify-identity.standalone.js"></script>' +
      '<verify-identity endpoint="/identity"></verify-identity>',
  ),
);
app.post('/forget-my-verification', async (c) => {
  await kit.forget(c);
  return c.redirect('/verify', 303);
});

const server = serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000) }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}`);
});
process.on('SIGTERM', async () => {
  await kit.close(); // answers pending long-polls, closes upstream connections
  server.close();
});

import { createVerifyKit } from '@verify-kit/express';
import express from 'express';
import session from 'express-session';

declare module 'express-session' {
  interface SessionData {
    userId?: string; // your sign-in
  }
}

const kit = createVerifyKit({
  baseUrl: process.env.IDV_BASE_URL!, // e.g. http://127.0.0.1:4010 for `npx verify-kit-sandbox`
  apiKey: process.env.IDV_API_KEY!,
  workflowId: 'default',
  // the verification belongs to the signed-in account (undefined: an anonymous visitor)
  accountOf: (req) => req.session.userId,
  onStatusChange: (event) => console.log('verification', event.accountId, event.status),
});

const app = express();
app.use(session({ secret: process.env.SESSION_SECRET!, resave: false, saveUninitialized: false }));
app.use('/identity', kit.router); // before any app.use(express.json())
// No verification yet, or not approved: the gate redirects a page to /verify and answers an API
// call with 403 NOT_APPROVED; the handler only runs for an approved verification.
app.get('/account', kit.requireApproved({ redirectTo: '/verify' }), (_req, res) => {
  res.send('welcome');
});
app.get('/api/me', kit.requireApproved(), async (req, res) => {
  const { verified } = await kit.verify(req, { type: 'DOCUMENT_COUNTRY', value: 'TUR' });
  res.json({ turkish: verified });
});
app.get('/verify', (_req, res) => {
  res.send(
    '<script type="module" src="/assets/verify-identity.standalone.js"></script>' +
      '<verify-identity endpoint="/identity"></verify-identity>',
  );
});
app.post('/forget-my-verification', async (req, res) => {
  await kit.forget(req, res);
  res.redirect(303, '/verify');
});

const server = app.listen(Number(process.env.PORT ?? 3000), () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as { port: number }).port}`);
});
process.on('SIGTERM', async () => {
  await kit.close(); // answers pending long-polls, closes upstream connections
  server.close();
  server.closeAllConnections(); // idle keep-alive connections too
});

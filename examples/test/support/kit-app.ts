import type { AddressInfo } from 'node:net';
import type { VerifyKit } from '@verify-kit/express';
import { Browser } from '@verify-kit/testkit';
import express from 'express';
import session from 'express-session';

/**
 * An app around a README's kit, on 127.0.0.1: express-session, a sign-in that makes every request
 * `accountId`'s (the examples' `accountOf` reads `req.session.userId`), the kit's router on /identity.
 */
export async function serveSignedIn(kit: VerifyKit, accountId: string) {
  const app = express();
  app.use(session({ secret: 'examples', resave: false, saveUninitialized: false }));
  app.use((req, _res, next) => {
    req.session.userId = accountId;
    next();
  });
  app.use('/identity', kit.router);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    browser: new Browser(`http://127.0.0.1:${port}`),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// The Express gate through a real shared cache: a granted page's own Cache-Control (express.static's,
// a handler's) gives way to private, no-store (issue 40, finding 4).
import { CACHEABLE, describeGrantsNotShared } from '@verify-kit/testkit';
import { startApp } from './support/app.js';

describeGrantsNotShared('Express', async (sandbox) =>
  startApp(
    { baseUrl: sandbox.url, apiKey: sandbox.apiKey },
    {
      routes(app, kit) {
        app.get('/cacheable', kit.requireApproved(), (_req, res) => {
          res.set('Cache-Control', CACHEABLE).send('only for verified people');
        });
        app.get('/public', (_req, res) => {
          res.set('Cache-Control', CACHEABLE).send('for everybody');
        });
      },
    },
  ),
);

// Hono's gate through a real shared cache: a granted page's own Cache-Control gives way to
// private, no-store (issue 40, finding 4).
import { CACHEABLE, describeGrantsNotShared } from '@verify-kit/testkit';
import { Hono } from 'hono';
import { createVerifyKit } from '../src/index.js';
import { serveApp } from './support/serve.js';

describeGrantsNotShared('Hono', async (sandbox) => {
  const kit = createVerifyKit({
    baseUrl: sandbox.url,
    apiKey: sandbox.apiKey,
    workflowId: 'default',
    secret: 'hono-shared-cache-test-secret-0123456789',
  });
  const app = new Hono();
  app.route('/identity', kit.router);
  app.get('/cacheable', kit.requireApproved(), (c) => {
    c.header('Cache-Control', CACHEABLE);
    return c.text('only for verified people');
  });
  app.get('/public', (c) => {
    c.header('Cache-Control', CACHEABLE);
    return c.text('for everybody');
  });
  const served = await serveApp(app);
  return {
    url: served.url,
    async close() {
      await kit.close();
      await served.close();
    },
  };
});

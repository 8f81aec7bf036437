import { Hono } from 'hono';
import type { VerifyKit } from '../../src/index.js';

/**
 * The README's Hono app as the tests serve it: the kit under /identity, `/account` gated with
 * redirectTo, `/api/*` gated without (`beforeGate` told of each as it reaches the gate), `/custom`
 * on statusOf and `POST /forget` on forget.
 */
export function appOf(kit: VerifyKit, beforeGate: () => void = () => {}): Hono {
  const app = new Hono();
  app.route('/identity', kit.router);
  app.get('/account', kit.requireApproved({ redirectTo: '/verify' }), (c) => c.json({ gated: '/account' }));
  app.all(
    '/api/*',
    async (_c, next) => {
      beforeGate();
      await next();
    },
    kit.requireApproved(),
    (c) => c.json({ gated: c.req.path }),
  );
  app.get('/custom', async (c) => c.json(await kit.statusOf(c)));
  app.post('/forget', async (c) => {
    await kit.forget(c);
    return c.json({ forgotten: true });
  });
  return app;
}

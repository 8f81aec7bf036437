import type { VerifyKit } from '@verify-kit/hono';
import { type Env, Hono } from 'hono';

// The Hono app on every runtime, as @verify-kit/hono's README writes it: the kit's router under
// /identity and one gated page. The shell reads each runtime's client address itself.

export function honoApp<E extends Env>(kit: VerifyKit<E>): Hono<E> {
  const app = new Hono<E>();
  app.route('/identity', kit.router);
  app.get('/account', kit.requireApproved({ redirectTo: '/verify' }), (c) => c.text('welcome'));
  return app;
}

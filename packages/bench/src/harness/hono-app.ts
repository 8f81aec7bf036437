import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { createVerifyKit } from '@verify-kit/hono';
import { countInNode } from '@verify-kit/hono/redis';
import { type Context, Hono } from 'hono';
import type { AppConfig } from './app.js';
import { benchKitOptions } from './kit-options.js';

/**
 * The integrator's app on Hono, served on Node by @hono/node-server: the README's lines with two
 * routes of the same answer, for the gate's cost in a visit (benches/hono.ts):
 * - `/plain`: a plain Hono route (its baseline);
 * - `/visit`: `kit.requireApproved()` in front of the same handler (the default gate: a read per
 *   visit, the stored decision inside it);
 * - `/identity/*`: `kit.router`. The limits lifted as in fetch-app.ts (no creation limit, no read
 *   budget a load from one address would meet); Node's counters, as the README's Redis setup passes them.
 */
export async function serveHonoBenchApp(config: AppConfig): Promise<{ url: string; close(): Promise<void> }> {
  const kit = createVerifyKit(benchKitOptions(config), { countIn: countInNode });
  const handled = (c: Context) => c.json({ ok: true });
  const app = new Hono();
  app.route('/identity', kit.router);
  app.get('/plain', handled);
  app.get('/visit', kit.requireApproved(), handled);
  const server: ServerType = await new Promise((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      if ('closeAllConnections' in server) server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await kit.close();
    },
  };
}

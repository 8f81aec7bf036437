import { randomBytes } from 'node:crypto';
import { getRequestListener } from '@hono/node-server';
import { createVerifyKit } from '@verify-kit/core';
import { countInNode } from '@verify-kit/core/redis';
import { createVerifyKit as createHonoKit } from '@verify-kit/hono';
import { type Listening, listen, serveFetch } from '@verify-kit/testkit';
import { type Context, Hono } from 'hono';
import { type AppConfig, benchKitOptions } from './app.js';

// The integrator's app on the shells over core's Fetch door, each served on Node in the app's
// process (app-process.ts, listenShell), on a port of its own: the same small answer behind two
// fronts, and the kit's routes:
// - `/plain`: a plain route of the shell (the baseline);
// - `/visit`: the gate as the kit sets it by default (a read per visit, the stored decision inside it);
// - `/identity/*`: the kit's routes.
// The kit's options as app.ts's (benchKitOptions), a fresh secret for its sealed cookies, and Node's
// counters (rate-limiter-flexible), as a Node shell passes them.

const options = (config: AppConfig) => ({
  ...benchKitOptions(config),
  secret: randomBytes(32).toString('base64url'),
});
const counters = { countIn: countInNode };

/** `server`, closing the kit after it. */
const closingKit = (server: Listening, kit: { close(): Promise<void> }): Listening => ({
  ...server,
  async close() {
    await server.close();
    await kit.close();
  },
});

/** Core's Fetch door, served by testkit's bridge from node:http: what a Hono or Next.js app runs. */
async function serveFetchDoor(config: AppConfig): Promise<Listening> {
  const kit = createVerifyKit({ ...options(config), basePath: '/identity' }, counters);
  const handled = () =>
    new Response(JSON.stringify({ ok: true }), {
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
  const server = await serveFetch(async (request, context) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/plain') return handled();
    if (pathname === '/visit') {
      const gate = await kit.gate(request, undefined, context);
      if (gate.kind !== 'granted') return gate.response;
      const answer = handled();
      for (const [name, value] of gate.headers) answer.headers.append(name, value);
      return answer;
    }
    return kit.handle(request, context);
  });
  return closingKit(server, kit);
}

/**
 * @verify-kit/hono, the README's lines (`kit.router`, `kit.requireApproved()` in front of the
 * handler), served by @hono/node-server's request listener (as its `serve` makes the server).
 */
async function serveHono(config: AppConfig): Promise<Listening> {
  const kit = createHonoKit(options(config), counters);
  const handled = (c: Context) => c.json({ ok: true });
  const app = new Hono();
  app.route('/identity', kit.router);
  app.get('/plain', handled);
  app.get('/visit', kit.requireApproved(), handled);
  return closingKit(await listen(getRequestListener(app.fetch)), kit);
}

export const SHELLS = { fetch: serveFetchDoor, hono: serveHono };
export type Shell = keyof typeof SHELLS;

import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { createVerifyKit, VISITOR_COOKIE } from '@verify-kit/core';
import { countInNode } from '@verify-kit/core/redis';
import { createVerifyKit as createHonoKit } from '@verify-kit/hono';
import { type FetchContext, type Listening, listen, serveFetch } from '@verify-kit/testkit';
import { type Context, Hono } from 'hono';
import { type AppConfig, benchKitOptions } from './app.js';

// The integrator's app on the shells over core's Fetch door, each served on Node in the app's
// process (app-process.ts, listenShell), on a port of its own: the same small answer behind two
// fronts, and the kit's routes:
// - `/plain`: a plain route of the shell (the baseline);
// - `/visit`: the gate as the kit sets it by default (a read per visit, the stored decision inside it);
// - `/identity/*`: the kit's routes;
// - on Hono, `/cookie-read`: the gate's physical limit inside a visit, the plain route that also
//   reads the Cookie header and finds the visitor's cookie in it (no opening, no decision).
// The kit's options as app.ts's (benchKitOptions), a fresh secret for its sealed cookies, and Node's
// counters (rate-limiter-flexible), as a Node shell passes them. peer-apps.ts adds the peers' gates.

export const shellKitOptions = (config: AppConfig) => ({
  ...benchKitOptions(config),
  secret: randomBytes(32).toString('base64url'),
});
export const counters = { countIn: countInNode };

/** `server`, closing each kit after it. */
export const closingKits = (server: Listening, ...kits: { close(): Promise<void> }[]): Listening => ({
  ...server,
  async close() {
    await server.close();
    for (const kit of kits) await kit.close();
  },
});

type CoreKit = ReturnType<typeof createVerifyKit>;
type CoreOptions = Parameters<typeof createVerifyKit>[0];

/** The same small answer on every route of the Fetch-door apps. */
export const handledFetch = () =>
  new Response(JSON.stringify({ ok: true }), {
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });

/**
 * Core's Fetch door: `<prefix>/plain`, `<prefix>/visit` (the gate), and the kit's routes (its
 * basePath); undefined for any other path.
 */
export function fetchDoor(options: CoreOptions, prefix = '') {
  const kit = createVerifyKit(options, counters);
  const answer = async (request: Request, context: FetchContext, pathname: string) => {
    if (pathname === `${prefix}/plain`) return handledFetch();
    if (pathname === `${prefix}/visit`) {
      const gate = await kit.gate(request, undefined, context);
      if (gate.kind !== 'granted') return gate.response;
      const answered = handledFetch();
      for (const [name, value] of gate.headers) answered.headers.append(name, value);
      return answered;
    }
    if (pathname.startsWith(`${options.basePath}/`)) return kit.handle(request, context);
    return undefined;
  };
  return { kit: kit as CoreKit, answer };
}

/** Core's Fetch door, served by testkit's bridge from node:http: what a Hono or Next.js app runs. */
async function serveFetchDoor(config: AppConfig): Promise<Listening> {
  const door = fetchDoor({ ...shellKitOptions(config), basePath: '/identity' });
  const server = await serveFetch(
    async (request, context) =>
      (await door.answer(request, context, new URL(request.url).pathname)) ??
      new Response('not found', { status: 404 }),
  );
  return closingKits(server, door.kit);
}

export const handledHono = (c: Context) => c.json({ ok: true });

/** The Cookie header as @hono/node-server received it, read without making the Request. */
const incomingCookie = (c: Context) => (c.env as { incoming?: IncomingMessage }).incoming?.headers.cookie;

/** Whether the Cookie header holds a cookie `name` with a value: the header split and searched, as a gate parses it. */
function hasCookie(header: string | undefined, name: string): boolean {
  for (const pair of header?.split(';') ?? []) {
    const equals = pair.indexOf('=');
    if (equals > 0 && pair.slice(0, equals).trim() === name) return pair.length > equals + 1;
  }
  return false;
}

/**
 * @verify-kit/hono, the README's lines (`kit.router`, `kit.requireApproved()` in front of the
 * handler): `/plain`, `/visit`, `/cookie-read`, the kit at `/identity` (basePath: where the app
 * that holds this one mounts it, e.g. `/redis/identity`).
 */
export function honoShell(options: Parameters<typeof createHonoKit>[0]) {
  const kit = createHonoKit(options, counters);
  const app = new Hono();
  app.route('/identity', kit.router);
  app.get('/plain', handledHono);
  app.get('/visit', kit.requireApproved(), handledHono);
  app.get('/cookie-read', (c) =>
    hasCookie(incomingCookie(c), VISITOR_COOKIE) ? handledHono(c) : c.text('no visitor cookie', 401),
  );
  return { kit, app };
}

/** @verify-kit/hono served by @hono/node-server's request listener (as its `serve` makes the server). */
async function serveHono(config: AppConfig): Promise<Listening> {
  const { kit, app } = honoShell(shellKitOptions(config));
  return closingKits(await listen(getRequestListener(app.fetch)), kit);
}

export const SHELLS = { fetch: serveFetchDoor, hono: serveHono };
export type Shell = keyof typeof SHELLS;

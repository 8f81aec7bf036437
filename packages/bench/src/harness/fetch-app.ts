import { createVerifyKit } from '@verify-kit/core';
import { countInNode } from '@verify-kit/core/redis';
import { type Listening, serveFetch } from '@verify-kit/testkit';
import type { AppConfig } from './app.js';
import { benchKitOptions } from './kit-options.js';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/**
 * The integrator's app on core's Fetch door, served on Node by testkit's bridge: what a Hono or
 * Next.js app runs. The same handler as app.ts behind two fronts:
 * - `/plain`: a plain Fetch route (its baseline);
 * - `/visit`: the gate as the kit sets it by default (a read per visit, the stored decision inside);
 * - `/identity/*`: the kit's routes. As in app.ts, no creation limit and no read budget a load from
 *   one address would meet; Node's counters (rate-limiter-flexible), as a Node shell passes them.
 */
export async function serveFetchBenchApp(config: AppConfig): Promise<Listening> {
  const kit = createVerifyKit(
    { ...benchKitOptions(config), basePath: '/identity' },
    { countIn: countInNode },
  );
  const handled = () => new Response(JSON.stringify({ ok: true }), { headers: JSON_HEADERS });
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
  return {
    ...server,
    async close() {
      await server.close();
      await kit.close();
    },
  };
}

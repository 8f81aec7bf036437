import { createVerifyKit, type VerifyKit } from '@verify-kit/core';

// Cloudflare Workers: vars and secrets come with each request (`env`), not in `process.env`, so the
// kit is made from them on the isolate's first request and serves every request after it.
interface Env {
  IDV_BASE_URL: string;
  IDV_API_KEY: string;
  IDV_WEBHOOK_SECRET: string;
  VERIFY_KIT_SECRET: string;
}

let kit: VerifyKit | undefined; // one per isolate

export default {
  async fetch(request: Request, env: Env, ctx: { waitUntil(work: Promise<unknown>): void }) {
    kit ??= createVerifyKit({
      baseUrl: env.IDV_BASE_URL,
      apiKey: env.IDV_API_KEY,
      workflowId: 'default',
      webhookSecret: env.IDV_WEBHOOK_SECRET,
      basePath: '/identity',
      secret: env.VERIFY_KIT_SECRET, // seals the anonymous visitor's cookie
      longPoll: false, // an isolate hears only the webhooks that reach it: the widget polls
    });
    // What Workers knows beyond the Request: the client's address, which Cloudflare sets (for the
    // limits), and waitUntil (a webhook's work after its 204, the gate's background re-read).
    const context = {
      clientAddress: request.headers.get('cf-connecting-ip') ?? undefined,
      waitUntil: (work: Promise<unknown>) => ctx.waitUntil(work),
    };
    const { pathname } = new URL(request.url);
    if (pathname.startsWith('/identity/')) return kit.handle(request, context);
    if (pathname === '/account') {
      const gate = await kit.gate(request, { redirectTo: '/verify' }, context);
      if (gate.kind !== 'granted') return gate.response;
      return new Response('welcome', { headers: gate.headers });
    }
    return new Response('not found', { status: 404 });
  },
};

import { createVerifyKit } from '@verify-kit/core';

// Any server that speaks the Fetch standard (Bun, Deno, or Node through a bridge; Cloudflare
// Workers: see below): the widget's routes under basePath, and a gated page.
export const kit = createVerifyKit({
  baseUrl: process.env.IDV_BASE_URL!,
  apiKey: process.env.IDV_API_KEY!,
  workflowId: 'default',
  webhookSecret: process.env.IDV_WEBHOOK_SECRET,
  basePath: '/identity',
  secret: process.env.VERIFY_KIT_SECRET!, // seals the anonymous visitor's cookie
});

export default {
  async fetch(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname.startsWith('/identity/')) return kit.handle(request);
    if (pathname === '/account') {
      const gate = await kit.gate(request, { redirectTo: '/verify' });
      if (gate.kind !== 'granted') return gate.response;
      return new Response('welcome', { headers: gate.headers });
    }
    return new Response('not found', { status: 404 });
  },
};

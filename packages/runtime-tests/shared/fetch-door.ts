import type { RequestContext, VerifyKit } from '@verify-kit/core';

// The Fetch door's app on every runtime, as core's README writes it: the widget's routes and the
// webhook under /identity, and one gated page. Each runtime's file serves it its own way and tells
// it what the runtime knows beyond the Request (the client's address, Workers' waitUntil).

export type FetchApp = (request: Request, context: RequestContext) => Promise<Response>;

export function fetchDoorApp(kit: VerifyKit): FetchApp {
  return async (request, context) => {
    const { pathname } = new URL(request.url);
    if (pathname.startsWith('/identity/')) return kit.handle(request, context);
    if (pathname === '/account') {
      const gate = await kit.gate(request, { redirectTo: '/verify' }, context);
      if (gate.kind !== 'granted') return gate.response;
      return new Response('welcome', { headers: gate.headers });
    }
    return new Response('not found', { status: 404 });
  };
}

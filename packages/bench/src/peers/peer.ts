import type { RequestHandler } from 'express';
import type { MiddlewareHandler } from 'hono';

/**
 * Another library's gate in front of a page, on each framework as that library's own integration
 * does it, configured offline (no request leaves the process): what `pnpm bench` measures
 * verify-kit's gate beside (benches/peers.ts).
 */
export interface Peer {
  /** Cookie headers of `count` distinct signed-in people, each as that person's browser sends it. */
  cookies(count: number): Promise<string[]>;
  /** Hono middleware: the handler after it runs only for a signed-in person (else 401). */
  hono: MiddlewareHandler;
  /** Express middleware, likewise. */
  express: RequestHandler;
  /** On a bare Fetch server: undefined for a signed-in person, else the refusal to send. */
  fetch(request: Request): Promise<Response | undefined>;
}

/** What every peer's gate answers a request it refuses (the bench counts any non-2xx as a failure). */
export const unauthorized = () => new Response('Unauthorized', { status: 401 });

/** Each `name=value` of Set-Cookie lines, as a browser sends them back in one Cookie header. */
export function cookieHeaderOf(setCookies: readonly string[]): string {
  return setCookies.map((line) => line.split(';', 1)[0]!.trim()).join('; ');
}

/**
 * The Fetch `Request` of an Express request's URL and headers (no body: a gate reads none), as
 * `@clerk/express` and `better-auth/node` build one for their Fetch cores.
 */
export function webRequestOf(req: {
  headers: Record<string, string | string[] | undefined>;
  originalUrl: string;
}) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const one of value) headers.append(name, one);
    else if (value !== undefined) headers.set(name, value);
  }
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.originalUrl}`, { headers });
}

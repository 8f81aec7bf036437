import type { Context } from 'hono';
import { getRuntimeKey } from 'hono/adapter';

/** Reads the client's address of a request; undefined when it cannot tell. */
export type ClientAddressOf<C extends Context = Context> = (c: C) => string | undefined;

/** What each runtime's adapter gives the app as `c.env` (the parts read here). */
interface NodeBindings {
  incoming?: { socket?: { remoteAddress?: string }; headers?: Record<string, string | string[] | undefined> };
  outgoing?: { setHeader?(name: string, value: string): unknown; headersSent?: boolean };
}
interface BunServer {
  requestIP?(request: Request): { address?: string } | null;
}
interface DenoServeInfo {
  remoteAddr?: { hostname?: string };
}

const bindingsOf = (c: Context): Record<string, unknown> | undefined =>
  typeof c.env === 'object' && c.env !== null ? (c.env as Record<string, unknown>) : undefined;

/**
 * @hono/node-server: the socket's remote address (its documented `HttpBindings`, `c.env.incoming`,
 * as `@hono/node-server/conninfo` reads it), never a header.
 */
export const nodeClientAddress: ClientAddressOf = (c) => {
  const env = bindingsOf(c);
  const bindings = (env?.server ?? env) as NodeBindings | undefined;
  return bindings?.incoming?.socket?.remoteAddress;
};

/**
 * @hono/node-server: the request's headers straight from Node's IncomingMessage. Its `c.req.raw`
 * makes a whole `Request` (every header copied) the first time it is read; the gate needs one header.
 */
export function nodeHeaders(c: Context): ((name: string) => string | undefined) | undefined {
  const env = bindingsOf(c);
  const headers = ((env?.server ?? env) as NodeBindings | undefined)?.incoming?.headers;
  if (headers === undefined) return undefined;
  return (name) => {
    const value = headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
}

/**
 * @hono/node-server: a header set on Node's ServerResponse itself, which it writes with the answer
 * (the answer's own headers win over it); undefined elsewhere. Cheaper than Hono's `Headers`.
 */
export function nodeHeaderSetter(c: Context): ((name: string, value: string) => void) | undefined {
  const env = bindingsOf(c);
  const outgoing = ((env?.server ?? env) as NodeBindings | undefined)?.outgoing;
  if (typeof outgoing?.setHeader !== 'function' || outgoing.headersSent === true) return undefined;
  return (name, value) => outgoing.setHeader?.(name, value);
}

/** Bun.serve: `server.requestIP(request)` (the server is the fetch handler's second argument). */
export const bunClientAddress: ClientAddressOf = (c) => {
  const env = bindingsOf(c);
  const server = (env !== undefined && 'server' in env ? env.server : env) as BunServer | undefined;
  return typeof server?.requestIP === 'function'
    ? (server.requestIP(c.req.raw)?.address ?? undefined)
    : undefined;
};

/** Deno.serve: the handler's info, `remoteAddr.hostname`. */
export const denoClientAddress: ClientAddressOf = (c) =>
  (bindingsOf(c) as DenoServeInfo | undefined)?.remoteAddr?.hostname;

/**
 * Cloudflare Workers: `cf-connecting-ip`, which Cloudflare sets on every request (read only on
 * Workers: anywhere else a client could send it).
 */
export const cloudflareClientAddress: ClientAddressOf = (c) => c.req.header('cf-connecting-ip');

/** The reader of the runtime this code runs on (Hono's own detection), or undefined for one it does not know. */
export function runtimeClientAddress(runtime = getRuntimeKey()): ClientAddressOf | undefined {
  switch (runtime) {
    case 'node':
      return nodeClientAddress;
    case 'bun':
      return bunClientAddress;
    case 'deno':
      return denoClientAddress;
    case 'workerd':
      return cloudflareClientAddress;
    default:
      return undefined;
  }
}

import { createClient } from '@verify-kit/client';
import {
  type VerifyKit as CoreKit,
  type VerifyKitOptions as CoreOptions,
  createVerifyKit as createCoreKit,
  type GateResult,
  type GateRules,
  type KitHealth,
  type KitRuntime,
  type RequestContext,
  type StatusOfOptions,
  type StatusOfResult,
  VerifyKitError,
} from '@verify-kit/core';
import { countInNode } from '@verify-kit/core/internal/redis/counters';
// next/navigation would bring the App Router's React contexts into route handlers' bundles (which lack them).
import { redirect } from 'next/dist/client/components/redirect.js';
import { cookies, headers } from 'next/headers.js';
import { after, NextResponse } from 'next/server.js';
import { type ClientAddress, parseClientAddress } from './client-address.js';
import { parseSetCookie, withCookies } from './cookies.js';
import { fingerprintOf, type SharedKit, sharedKits } from './shared.js';

/** Where `app/identity/[...path]/route.ts` answers: the route file's folder. */
export const DEFAULT_BASE_PATH = '/identity';

/**
 * The kit's options in Next.js: the engine's (as `@verify-kit/express` takes them, `accountOf(request)`
 * given the `Request`), `secret`, and:
 */
export interface VerifyKitOptions extends Omit<CoreOptions<Request>, 'basePath'> {
  /**
   * The path the browser requests the route handlers under: the folder of
   * `app/<basePath>/[...path]/route.ts`, with next.config's own `basePath` in front if you set one.
   * Default `/identity`. Never guessed from Next.js: a request outside it is a 404 ROUTE_NOT_FOUND.
   */
  basePath?: string;
  /** Where the client's address for the limits comes from (`ClientAddress`). Default: nowhere, one shared bucket. */
  clientAddress?: ClientAddress;
}

/** An App Router route handler, as `export const { GET, HEAD, POST } = kit.handlers` exports it. */
export type RouteHandler = (request: Request) => Promise<Response>;

/**
 * A proxy (Next 16 `proxy.ts`) or Node-runtime middleware (Next 15.5 `middleware.ts`): Next.js
 * passes its NextRequest. Typed with `Request`, so these types need none of Next's.
 */
export type ProxyGate = (request: Request) => Promise<Response>;

export interface VerifyKit {
  /** The widget protocol and the webhook receiver: `export const { GET, HEAD, POST } = kit.handlers;`. */
  readonly handlers: { readonly GET: RouteHandler; readonly HEAD: RouteHandler; readonly POST: RouteHandler };
  /**
   * The gate for `proxy.ts`: passes an approved visitor on (with the visit's cookie), else the
   * gate's answer: 303 to `redirectTo?returnTo=…` for a navigation, 403 JSON, 503 when the service
   * cannot be read where a read is required. Reads headers only, never the body.
   */
  requireApproved(rules?: GateRules): ProxyGate;
  /**
   * This request's status in a Server Component, Server Action or route handler (from `headers()`
   * and `cookies()`). Read-only: it never moves the visitor's cookie, so a Server Component, where
   * Next.js lets no cookie be set, loses nothing by reading. Throws a VerifyKitError when the service
   * cannot be read: fail closed.
   */
  statusOf(options?: StatusOfOptions): Promise<StatusOfResult>;
  /**
   * The gate for a Server Action or a route handler (the proxy gates pages, not the actions a page's
   * form posts: Next.js accepts an action's POST on any path): `await kit.assertApproved()` first
   * thing in the action. Answers the status when approved; otherwise `redirect(rules.redirectTo)`
   * where given, else throws a `NOT_APPROVED` VerifyKitError (403); the service unreadable throws (503).
   */
  assertApproved(rules?: Pick<GateRules, 'redirectTo' | 'freshness' | 'maxAgeMs'>): Promise<StatusOfResult>;
  /**
   * Unbinds this request's verification (from `headers()` and `cookies()`): the gate refuses it from
   * the next request on. Call it from a Server Action or a route handler, where Next.js lets code set
   * the cookie it clears; in a Server Component it throws COOKIE_NOT_WRITABLE (without a shared store
   * the cookie itself is the verification: left in the browser, other instances would still honour it).
   */
  forget(): Promise<void>;
  /** core's `handle` with this kit's client address: for a route handler of your own. */
  handle(request: Request): Promise<Response>;
  /** core's `gate` with this kit's client address: for a gate of your own (headers only). */
  gate(request: Request, rules?: GateRules): Promise<GateResult>;
  health(): Promise<KitHealth>;
  /** Ends long-polls and timers, closes the store; the shared kit of this basePath is made anew on next use. */
  close(): Promise<void>;
}

const BUILDING = 'phase-production-build';

/**
 * The gate's redirect with its Location made absolute against the request: Next.js refuses a
 * relative one from a proxy ("Invalid URL") and writes a same-origin one back as a path.
 */
function absoluteLocation(response: Response, base: string): Response {
  const location = response.headers.get('location');
  if (location !== null) response.headers.set('location', new URL(location, base).href);
  return response;
}

/** Keeps the webhook's follow-up going after the answer (Next's `after`); nothing outside a request. */
function keepGoing(work: Promise<unknown>): void {
  try {
    after(work);
  } catch {
    // Outside a request's scope (a test calling the handler directly): the promise runs anyway.
  }
}

/**
 * The kit for a Next.js App Router app on the Node runtime. Create it once in `lib/verify-kit.ts`;
 * the route handlers, the proxy and server code import it. Options are checked here, except while
 * `next build` collects the app's modules (then on first use), so a build needs no secrets.
 * `runtime`: core's; by default Node's counters (rate-limiter-flexible, in memory or on the store's
 * Redis) and undici's pool to the service (not Next.js's patched `fetch`).
 */
export function createVerifyKit(
  options: VerifyKitOptions,
  runtime: KitRuntime = { countIn: countInNode, connect: createClient },
): VerifyKit {
  const { clientAddress, basePath = DEFAULT_BASE_PATH, ...engine } = options;
  const { addressOf, warning: addressWarning } = parseClientAddress(clientAddress);
  const coreOptions: CoreOptions<Request> = { ...engine, basePath };
  const fingerprint = fingerprintOf({ ...coreOptions, clientAddress });

  /** This process's kit for basePath: found (another bundle made it) or made now. */
  function current(): CoreKit {
    const kits = sharedKits();
    const found = kits.get(basePath);
    if (found !== undefined && found.fingerprint === fingerprint) {
      closeUnusedStore(kits, found);
      return found.core;
    }
    const made: SharedKit = {
      core: createCoreKit(coreOptions, runtime),
      fingerprint,
      store: coreOptions.store,
    };
    kits.set(basePath, made);
    if (found !== undefined) {
      // Other options under the same basePath (next dev reloaded lib/verify-kit.ts): the new ones win.
      void found.core.close().catch(() => {});
    }
    if (addressWarning !== undefined && process.env.NODE_ENV === 'production') warn(addressWarning);
    return made.core;
  }

  let storeChecked = false;
  /** This evaluation's own store, when another evaluation's kit is the one in use: nobody will use it. */
  function closeUnusedStore(kits: Map<string, SharedKit>, found: SharedKit): void {
    if (storeChecked) return;
    storeChecked = true;
    const { store } = coreOptions;
    if (store === undefined || store === found.store) return;
    if ([...kits.values()].some((kit) => kit.store === store)) return;
    void store.close().catch(() => {});
  }

  function warn(message: string): void {
    const { logger } = options;
    if (logger?.warn !== undefined) logger.warn(message);
    else if (logger === undefined) console.warn(`[verify-kit] ${message}`);
  }

  const contextOf = (request: Request): RequestContext => ({
    clientAddress: addressOf?.(request),
    waitUntil: keepGoing,
  });

  // Made now, so a wrong option fails at startup, next to its cause; not while `next build` runs.
  if (process.env.NEXT_PHASE !== BUILDING) current();

  const handle: RouteHandler = async (request) => current().handle(request, contextOf(request));

  /** A Request carrying this request's headers (server code has no Request): for statusOf and forget. */
  async function requestFromHeaders(): Promise<Request> {
    const incoming = new Headers(await headers());
    const proto = incoming.get('x-forwarded-proto')?.split(',')[0]?.trim() === 'https' ? 'https' : 'http';
    const host = incoming.get('host') ?? 'localhost';
    return new Request(`${proto}://${host}${basePath}`, { headers: incoming });
  }

  /**
   * The kit's Set-Cookie lines through `cookies().set`, where Next.js allows it. `required`: the
   * cookie must reach the browser (forget()); else a Server Component, where Next.js allows none,
   * goes on without it (statusOf's visit: the next gated request reads again).
   */
  async function applyCookies(answer: Headers, required = false): Promise<void> {
    const lines = answer.getSetCookie();
    if (lines.length === 0) return;
    const jar = await cookies();
    for (const line of lines) {
      const cookie = parseSetCookie(line);
      if (cookie === undefined) continue;
      try {
        jar.set(cookie);
      } catch (cause) {
        if (!required) continue;
        throw new VerifyKitError(
          'COOKIE_NOT_WRITABLE',
          'kit.forget() must run in a Server Action or a route handler: Next.js lets no cookie be set while a Server Component renders, and the visitor’s cookie must be cleared',
          { cause },
        );
      }
    }
  }

  async function statusOf(statusOptions?: StatusOfOptions): Promise<StatusOfResult> {
    const request = await requestFromHeaders();
    const { headers: answer, ...result } = await current().statusOf(
      request,
      statusOptions,
      contextOf(request),
    );
    await applyCookies(answer);
    return result;
  }

  return {
    handlers: { GET: handle, HEAD: handle, POST: handle },
    requireApproved(rules) {
      return async (request) => {
        const result = await current().gate(request, rules, contextOf(request));
        if (result.kind !== 'granted') return absoluteLocation(result.response, request.url);
        const setCookies = result.headers.getSetCookie();
        const response =
          setCookies.length === 0
            ? NextResponse.next()
            : NextResponse.next({ request: { headers: withCookies(request.headers, setCookies) } });
        for (const [name, value] of result.headers) response.headers.append(name, value);
        return response;
      };
    },
    statusOf,
    async assertApproved(rules = {}) {
      const { redirectTo, ...decide } = rules;
      const result = await statusOf(decide);
      if (result.approved) return result;
      if (redirectTo !== undefined) redirect(redirectTo);
      throw new VerifyKitError('NOT_APPROVED', 'only a verified person may do this', { status: 403 });
    },
    async forget() {
      const request = await requestFromHeaders();
      const { headers: answer } = await current().forget(request, contextOf(request));
      await applyCookies(answer, true);
    },
    handle,
    gate: async (request, rules) => current().gate(request, rules, contextOf(request)),
    health: async () => current().health(),
    async close() {
      const kits = sharedKits();
      const found = kits.get(basePath);
      if (found === undefined) return;
      kits.delete(basePath);
      await found.core.close();
    },
  };
}

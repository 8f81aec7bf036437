import {
  type VerifyKitOptions as CoreOptions,
  createVerifyKit as createCoreKit,
  type GateRules,
  type KitHealth,
  type KitRuntime,
  type RequestContext,
  type StatusOfOptions,
  type StatusOfResult,
  VerifyKitError,
} from '@verify-kit/core';
import { type Context, type Env, Hono, type MiddlewareHandler } from 'hono';
import { getRuntimeKey } from 'hono/adapter';
import { basePath as mountOf } from 'hono/route';
import {
  type ClientAddressOf,
  nodeHeaderSetter,
  nodeHeaders,
  runtimeClientAddress,
} from './client-address.js';

/** Where `kit.router` answers unless `basePath` says otherwise: `app.route('/identity', kit.router)`. */
export const DEFAULT_BASE_PATH = '/identity';

/**
 * The kit's options on Hono: core's (the Express kit's, plus `secret`), with Hono's `Context` as what
 * `accountOf`, `sessionOptions` and send-link's hooks are given.
 */
export type VerifyKitOptions<E extends Env = Env> = Omit<CoreOptions<Context<E>>, 'basePath'> & {
  /**
   * Where the app mounts `kit.router`: `app.route(basePath, kit.router)`; default `/identity`. A
   * router mounted anywhere else answers 500 and says so in the log, never a silent 404.
   */
  basePath?: string;
  /**
   * The client's address for the limits. Default: the runtime's own connection info (Node through
   * @hono/node-server's socket, Bun's `requestIP`, Deno's `remoteAddr`, `cf-connecting-ip` on
   * Workers). Behind a proxy, read the header it sets, e.g. `(c) => c.req.header('x-real-ip')`.
   * Without an address every client counts in one shared bucket: never no limit.
   */
  clientAddress?: ClientAddressOf<Context<E>>;
};

export interface VerifyKit<E extends Env = Env> {
  /** A Hono app answering the widget protocol and the webhook: `app.route(basePath, kit.router)`. */
  readonly router: Hono<E>;
  /** The gate as middleware: the handler after it runs only for an approved verification. Never reads the body. */
  requireApproved(rules?: GateRules): MiddlewareHandler<E>;
  /** This request's status, for custom logic; the visitor's cookie goes on the response. Throws on an upstream failure. */
  statusOf(c: Context<E>, options?: StatusOfOptions): Promise<StatusOfResult>;
  /** Unbinds this request's verification; clears an anonymous visitor's cookie on the response. */
  forget(c: Context<E>): Promise<void>;
  health(): Promise<KitHealth>;
  /** Answers pending long-polls, stops timers, closes what the kit opened. Idempotent. */
  close(): Promise<void>;
}

/** What a granted answer's Cache-Control says (core's gate gives it): this person's page, for no shared cache. */
const PRIVATE = 'private, no-store';

const defaultLogger = { warn: (message: string) => console.warn(`[verify-kit] ${message}`) };

/** `/identity/` and `/identity` are one mount; `/` stays `/`. */
const trimSlash = (path: string) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);

function isProduction(): boolean {
  const process = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return process?.env?.NODE_ENV === 'production';
}

/** Workers' `ctx.waitUntil`; Hono's `c.executionCtx` throws where there is none (Node, Bun, Deno). */
function waitUntilOf(c: Context): RequestContext['waitUntil'] {
  let ctx: { waitUntil?: (work: Promise<unknown>) => void };
  try {
    ctx = c.executionCtx;
  } catch {
    return undefined;
  }
  return typeof ctx?.waitUntil === 'function' ? (work) => ctx.waitUntil?.(work) : undefined;
}

/** Each Set-Cookie appended (a response may carry several), any other header set. */
function applyHeaders(c: Context, headers: Headers): void {
  for (const [name, value] of headers) c.header(name, value, { append: name === 'set-cookie' });
}

/** One kit made of its options: core's, and what the shell keeps of them. */
function make<E extends Env>(options: VerifyKitOptions<E>, runtime: KitRuntime) {
  const { basePath = DEFAULT_BASE_PATH, clientAddress, ...engine } = options;
  const kit = createCoreKit<Context<E>>({ ...engine, basePath } as CoreOptions<Context<E>>, runtime);
  const logger = options.logger ?? defaultLogger;
  const addressOf = clientAddress ?? runtimeClientAddress();
  // On Node the gate reads its headers from the IncomingMessage, not from c.req.raw (made when read).
  const readHeaders = getRuntimeKey() === 'node' ? nodeHeaders : undefined;
  const warned = new Set<string>();
  const warnOnce = (key: string, message: string) => {
    if (warned.has(key)) return;
    warned.add(key);
    try {
      logger.warn?.(message);
    } catch {
      // Logging never fails a request.
    }
  };

  /**
   * What core is told of the request: the client address, Hono's Context for accountOf, and Workers'
   * waitUntil (a webhook's work after its 204, the gate's background re-read). The request's signal is core's
   * to read when a long-poll needs it (@hono/node-server makes one per request once it is read).
   */
  function contextOf(c: Context<E>, router = false): RequestContext {
    const address = addressOf?.(c as Context & Context<E>);
    if (address === undefined && clientAddress === undefined && isProduction()) {
      warnOnce(
        'address',
        'clientAddress: this runtime gives no client address, so every client counts in one shared bucket for the limits; pass createVerifyKit({ clientAddress: (c) => … }) (behind a proxy: the header it sets)',
      );
    }
    if (router) return { clientAddress: address, raw: c, waitUntil: waitUntilOf(c) };
    // The gate's background re-read (seldom): Workers' executionCtx is looked up only then.
    const waitUntil = (work: Promise<unknown>) => waitUntilOf(c)?.(work);
    return { clientAddress: address, raw: c, header: readHeaders?.(c), waitUntil };
  }

  return { kit, basePath, contextOf, warnOnce };
}

/** Options read from the runtime's bindings (`c.env`), e.g. a Worker's secrets and vars. */
export type VerifyKitOptionsFrom<E extends Env = Env> = (bindings: E['Bindings']) => VerifyKitOptions<E>;

/**
 * verify-kit on Hono, over @verify-kit/core's Fetch door: `kit.router` (the widget protocol and the
 * webhook, mounted with `app.route(basePath, kit.router)`), `kit.requireApproved(rules)` (the gate as
 * middleware), `statusOf(c)`, `forget(c)`. Options are checked here, once; given as a function of the
 * bindings (Workers: `(env) => ({ apiKey: env.IDV_API_KEY, … })`), on the first request, and the kit
 * made then serves every request after it (one per isolate). `runtime`: what your runtime brings to
 * core (on Node with Redis: `{ countIn: countInNode }` from `@verify-kit/hono/redis`).
 */
export function createVerifyKit<E extends Env = Env>(
  options: VerifyKitOptions<E> | VerifyKitOptionsFrom<E>,
  runtime: KitRuntime = {},
): VerifyKit<E> {
  let made = typeof options === 'function' ? undefined : make(options, runtime);
  let closedEarly = false;
  const madeFor = (c: Context<E>) => {
    if (made !== undefined) return made;
    if (closedEarly) throw new VerifyKitError('KIT_CLOSED', 'the kit is closed');
    made = make((options as VerifyKitOptionsFrom<E>)(c.env), runtime);
    return made;
  };

  const router = new Hono<E>();
  router.all('/*', async (c) => {
    const { kit, basePath, contextOf, warnOnce } = madeFor(c);
    const mount = trimSlash(mountOf(c));
    if (mount !== basePath) {
      const message = `kit.router is mounted at "${mount}" but its basePath is "${basePath}": mount it with app.route('${basePath}', kit.router), or pass createVerifyKit({ basePath: '${mount}' })`;
      warnOnce(`mount:${mount}`, message);
      return c.json({ error: { code: 'INTERNAL_ERROR', message } }, 500);
    }
    return kit.handle(c.req.raw, contextOf(c, true));
  });

  return {
    router,
    requireApproved(rules) {
      return async (c, next) => {
        const { kit, contextOf } = madeFor(c);
        const result = await kit.gate(c.req.raw, rules, contextOf(c));
        if (result.kind !== 'granted') return result.response;
        // Cache-Control: private, no-store (a granted page is this person's, for no shared cache):
        // on Node straight on the ServerResponse, elsewhere on the prepared headers…
        const setOnNode = nodeHeaderSetter(c);
        if (setOnNode !== undefined) setOnNode('cache-control', PRIVATE);
        else c.header('cache-control', PRIVATE);
        // …and the visitor's cookie, when the visit began or the session moved (seldom).
        const { setCookie } = result;
        if (setCookie !== undefined) c.header('set-cookie', setCookie, { append: true });
        await next();
        // A Cache-Control of the handler's own gives way, and a Response the handler built itself
        // (which takes no prepared header) gets both.
        const own = c.res.headers.get('cache-control');
        if (own !== PRIVATE && (own !== null || setOnNode === undefined)) c.header('cache-control', PRIVATE);
        if (setCookie !== undefined && !c.res.headers.getSetCookie().includes(setCookie)) {
          c.header('set-cookie', setCookie, { append: true });
        }
      };
    },
    async statusOf(c, statusOptions) {
      const { kit, contextOf } = madeFor(c);
      const { headers, ...result } = await kit.statusOf(c.req.raw, statusOptions, contextOf(c));
      applyHeaders(c, headers);
      return result;
    },
    async forget(c) {
      const { kit, contextOf } = madeFor(c);
      const { headers } = await kit.forget(c.req.raw, contextOf(c));
      applyHeaders(c, headers);
    },
    async health() {
      if (made === undefined) {
        throw new VerifyKitError(
          'INTERNAL_ERROR',
          'kit.health(): the kit is made on its first request (its options come from the bindings)',
        );
      }
      return made.kit.health();
    },
    async close() {
      if (made === undefined) closedEarly = true;
      else await made.kit.close();
    },
  };
}

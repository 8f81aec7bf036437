import { createFetchClient, type VerifyClient } from '@verify-kit/client/fetch';
import type { GateRules } from '../answers/gate-rules.js';
import { forget, type StatusOfOptions, type StatusOfResult, statusOf } from '../answers/status-of.js';
import type { CountIn } from '../limits/counter.js';
import { KitCore, type UpstreamConfig } from '../wiring/core.js';
import { type KitHealth, readHealth } from '../wiring/health.js';
import { type VerifyKitOptions as EngineOptions, resolveOptions } from '../wiring/options.js';
import { isProduction } from '../wiring/platform.js';
import { createGate, type GateResult } from './gate.js';
import { createHandler } from './handler.js';
import { kitRequestOf, type RequestContext } from './kit-request.js';
import { type FetchOptions, parseFetchOptions } from './options.js';
import { Visitors } from './visitors.js';

/** What the Fetch kit's webhookVerifier is given. */
export interface FetchWebhookVerifierInput {
  headers: Headers;
  /** The raw body, exactly as received. */
  body: Uint8Array;
}

/**
 * The kit's options on any server: the engine's (as the Express kit takes them), basePath and
 * secret. `Req` is what accountOf, sessionOptions and sendLink's hooks are given: the `Request`, or
 * the framework's own when a shell passes it as `context.raw`.
 */
export type VerifyKitOptions<Req = Request> = EngineOptions<Req, FetchWebhookVerifierInput> & FetchOptions;

export interface VerifyKit {
  /** The widget protocol and the webhook receiver under basePath; 404/405 JSON elsewhere. */
  handle(request: Request, context?: RequestContext): Promise<Response>;
  /** The gate: reads headers only, never the body. Pass it on only when `granted`. */
  gate(request: Request, rules?: GateRules, context?: RequestContext): Promise<GateResult>;
  /** This request's status, for custom logic; `headers` to forward (the visitor's cookie). Throws on an upstream failure. */
  statusOf(
    request: Request,
    options?: StatusOfOptions,
    context?: RequestContext,
  ): Promise<StatusOfResult & { headers: Headers }>;
  /** Unbinds this request's verification; `headers` clear the visitor's cookie. */
  forget(request: Request, context?: RequestContext): Promise<{ headers: Headers }>;
  health(): Promise<KitHealth>;
  close(): Promise<void>;
}

/**
 * What a shell on a particular runtime brings. Defaults: a fixed-window count in this process's
 * memory, and the service reached through the global `fetch`.
 */
export interface KitRuntime {
  /** Node: `countInNode` from `@verify-kit/core/redis`, rate-limiter-flexible's counters (in memory or the store's Redis). */
  countIn?: CountIn;
  /**
   * How the service is reached. Node: `createClient` from `@verify-kit/client` (undici's pool, with
   * no Request, Response or web stream made per call: measured, a creation on the Fetch door then
   * costs what it costs on Express); default `createFetchClient` (the runtime's `fetch`).
   */
  connect?: (config: UpstreamConfig) => VerifyClient;
}

/**
 * The kit on any server that speaks the Fetch standard (Request in, Response out): Hono, Next.js,
 * Bun, Deno, Workers, or Node through a bridge. Options are checked once, here.
 */
export function createVerifyKit<Req = Request>(
  options: VerifyKitOptions<Req>,
  runtime: KitRuntime = {},
): VerifyKit {
  const { basePath, secret, https, ...engine } = options;
  const production = isProduction();
  const fetchOptions = parseFetchOptions({ basePath, secret, https }, production);
  const core = new KitCore(resolveOptions(engine), {
    connect: runtime.connect ?? createFetchClient,
    ...(runtime.countIn === undefined ? {} : { countIn: runtime.countIn }),
  });
  const visitors = new Visitors(core, fetchOptions, production);
  const handle = createHandler(core, fetchOptions.basePath, visitors);
  const gate = createGate(core, visitors);

  /**
   * Runs `work` with this request's visitor; the cookie it changed goes in the returned headers.
   * `sendsCookie` false: the app may drop them (statusOf), so nothing moves.
   */
  async function withVisitor<T>(
    request: Request,
    context: RequestContext,
    sendsCookie: boolean,
    work: (req: ReturnType<typeof kitRequestOf>) => Promise<T>,
  ): Promise<{ result: T; headers: Headers }> {
    core.assertOpen();
    const visitor = await visitors.of(request, context, visitors.secure(request, context), sendsCookie);
    const result = await work(kitRequestOf(request, context, visitor));
    const headers = new Headers();
    const cookie = await visitors.setCookie(visitor);
    if (cookie !== undefined) headers.append('Set-Cookie', cookie);
    return { result, headers };
  }

  return {
    handle,
    gate,
    async statusOf(request, statusOptions, context = {}) {
      const { result, headers } = await withVisitor(request, context, false, (req) =>
        statusOf(core, req, statusOptions),
      );
      return { ...result, headers };
    },
    async forget(request, context = {}) {
      const { headers } = await withVisitor(request, context, true, (req) => forget(core, req));
      return { headers };
    },
    health: () => readHealth(core),
    close: () => core.close(),
  };
}

import type { KitRequest } from '../bindings/kit-request.js';
import { normalizeAddress } from '../shared/ip-address.js';
import type { HttpsOption } from './options.js';
import type { SealedVisitor } from './visitor.js';

/** What a shell knows of a request beyond the `Request` itself. */
export interface RequestContext {
  /**
   * The client's address for limits, as the platform gives it (Node's socket, a header of a proxy
   * you trust). Without it every client counts in one shared bucket: never no limit.
   */
  clientAddress?: string | undefined;
  /** What accountOf, sessionOptions, contactOf and beforeSend are given; default the `Request`. */
  raw?: unknown;
  /** Aborts when the client leaves (a long-poll then ends); default `request.signal`. */
  signal?: AbortSignal | undefined;
  /**
   * Keeps work going after the answer (a webhook's follow-up, the gate's background re-read), e.g.
   * Workers' `ctx.waitUntil`.
   */
  waitUntil?: ((work: Promise<unknown>) => void) | undefined;
  /** The request came over https, where the kit's `https` option is 'auto'; default its URL's scheme. */
  https?: boolean | undefined;
  /**
   * The request's header by lower-case name, where the server has a cheaper way than
   * `request.headers` (Node's IncomingMessage under @hono/node-server, whose `Request` is made
   * only when read); default `request.headers`.
   */
  header?: ((name: string) => string | undefined) | undefined;
}

/** The request's header by lower-case name. */
export function headerOf(request: Request, context: RequestContext): (name: string) => string | undefined {
  return context.header ?? ((name) => request.headers.get(name) ?? undefined);
}

/** Whether this request's browser connection is https, by the kit's `https` option. */
export function isHttps(request: Request, context: RequestContext, option: HttpsOption): boolean {
  if (typeof option === 'boolean') return option;
  if (option === 'x-forwarded-proto') {
    const proto = headerOf(request, context)('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
    if (proto !== undefined) return proto === 'https';
  }
  return context.https ?? request.url.startsWith('https:');
}

export function signalOf(request: Request, context: RequestContext): AbortSignal {
  return context.signal ?? request.signal;
}

/**
 * The engine's view of a Fetch request: its visitor is the sealed cookie's. A class, not an object
 * literal with getters and a closure: one is made for every gated request, and the literal's kept
 * its garbage alive into every scavenge (BENCHMARKS.md, "The Hono gate").
 */
class FetchKitRequest implements KitRequest {
  #address: string | undefined;

  constructor(
    private readonly request: Request,
    private readonly context: RequestContext,
    readonly visitor: SealedVisitor,
  ) {}

  get raw(): unknown {
    return this.context.raw ?? this.request;
  }

  /** Read when a limit counts (an IPv6 address is parsed for its /64), not for every gated request. */
  get address(): string {
    this.#address ??= normalizeAddress(this.context.clientAddress);
    return this.#address;
  }

  get sessionKey(): string {
    return this.visitor.sessionKey;
  }

  get waitUntil(): RequestContext['waitUntil'] {
    return this.context.waitUntil;
  }

  /** The signal is read only here: some servers make one per request once it is read. */
  async present(): Promise<boolean> {
    return !signalOf(this.request, this.context).aborted;
  }
}

export function kitRequestOf(request: Request, context: RequestContext, visitor: SealedVisitor): KitRequest {
  return new FetchKitRequest(request, context, visitor);
}

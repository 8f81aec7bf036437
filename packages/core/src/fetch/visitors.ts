import { isPerProcessStore } from '../bindings/binding-store.js';
import type { Maybe } from '../shared/maybe.js';
import type { KitCore } from '../wiring/core.js';
import { headerOf, isHttps, type RequestContext } from './kit-request.js';
import { PLAIN_COOKIE_WARNING, type ResolvedFetchOptions } from './options.js';
import { SealedVisitor, VisitorCookies } from './visitor.js';

/**
 * The Fetch door's anonymous visitors: each request's SealedVisitor, in this kit's mode (the cookie
 * carries the binding unless a shared store keeps it), over https or not by the `https` option.
 */
export class Visitors {
  readonly cookies: VisitorCookies;
  readonly #carries: boolean;

  constructor(
    private readonly core: KitCore,
    private readonly options: ResolvedFetchOptions,
    private readonly production: boolean,
  ) {
    this.cookies = new VisitorCookies(options.secret, () => core.now());
    this.#carries = isPerProcessStore(core.bindings.store);
    if (production && options.https === false) core.warnOnce(PLAIN_COOKIE_WARNING);
  }

  /** Whether this request's cookie is the `__Host-` one; a plain one in production is said once. */
  secure(request: Request, context: RequestContext): boolean {
    const secure = isHttps(request, context, this.options.https);
    if (!secure && this.production) this.core.warnOnce(PLAIN_COOKIE_WARNING);
    return secure;
  }

  /**
   * This request's visitor. `sendsCookie` false where the answer may not reach the browser with its
   * cookie (statusOf): nothing moves there.
   */
  of(request: Request, context: RequestContext, secure: boolean, sendsCookie = true): Maybe<SealedVisitor> {
    return SealedVisitor.of(this.core.bindings, this.cookies, headerOf(request, context)('cookie'), {
      carries: this.#carries,
      secure,
      sendsCookie,
    });
  }

  /** The Set-Cookie of this request's answer, if its visitor changed. */
  setCookie(visitor: SealedVisitor): Promise<string | undefined> | undefined {
    return visitor.changed ? visitor.setCookie(this.cookies) : undefined;
  }
}

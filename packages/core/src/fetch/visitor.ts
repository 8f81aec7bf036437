import type { VerificationBinding } from '../bindings/binding.js';
import type { StoredDecision } from '../bindings/binding-store.js';
import type { Bindings } from '../bindings/bindings.js';
import type { VisitMarker, Visitor } from '../bindings/kit-request.js';
import { sameIdentification } from '../shared/identification-key.js';
import { andThen, type Maybe } from '../shared/maybe.js';
import { encodeBase64Url } from '../web/base64.js';
import { cookieIn, serializeClearCookie, serializeCookie } from '../web/cookie-header.js';
import { isEmpty, type Sealed } from './sealed-state.js';
import type { VisitorCookies } from './visitor-cookies.js';

export { VisitorCookies } from './visitor-cookies.js';

/** The anonymous visitor's cookie: sealed, `__Host-` over https (cookie-header.ts). */
export const VISITOR_COOKIE = 'vk_visitor';
/** Where a shared store keeps an anonymous visitor's binding: the store's bindings, beside the accounts'. */
export const VISITOR_KEY_PREFIX = 'anonymous-visitor:';
/** Browsers keep a cookie at most 400 days; the binding's own retention ends it sooner. */
const COOKIE_MAX_AGE_SECONDS = 400 * 24 * 3600;

/** A visitor's random id: 128 bits, base64url (22 characters: the cookie stays small). */
const randomId = () => encodeBase64Url(crypto.getRandomValues(new Uint8Array(16)));

/** How this request's visitor is held. */
export interface VisitorMode {
  /**
   * The cookie is the binding (no shared store: the memory store, one per process): any instance
   * opens it and decides, and this process's retired ids stand for what a shared store would know.
   * Otherwise the store keeps the binding under the cookie's id, and the cookie carries only ids.
   */
  carries: boolean;
  /** The cookie goes over https: `__Host-` and `Secure`, and only that name is read. */
  secure: boolean;
  /**
   * This request's answer carries the cookie. false where it may be dropped (statusOf in a Server
   * Component, an app that drops statusOf's headers): nothing moves there, so reading loses nothing.
   */
  sendsCookie: boolean;
}

/**
 * An anonymous visitor of the Fetch door: a sealed cookie (AES-GCM, `secret`) that nobody but the
 * kit can make or read. Without a shared store it carries the binding, the visit and what the service
 * last said (any instance decides from it); with one it names a random id whose binding the store
 * keeps. Either way a new verification, the first approval and forget() move the visitor to a new id
 * and retire the old one, so a copy of an earlier cookie holds nothing where that is known (every
 * instance with a shared store; this process without one).
 */
export class SealedVisitor implements Visitor {
  #state: Sealed;
  #binding: VerificationBinding | undefined;
  #changed = false;
  /** Another request of this browser moved it meanwhile: this one goes on with the old id, sets no cookie. */
  #superseded = false;
  /**
   * A visitor without an id counts as this request's own, as express-session gives each new browser
   * its own id: two new visitors never share one key (one would be told 409 by the other's creation,
   * and they would share one read budget).
   */
  #newKey: string | undefined;

  private constructor(
    private readonly bindings: Bindings,
    private readonly cookies: VisitorCookies,
    private readonly mode: VisitorMode,
    state: Sealed,
    binding: VerificationBinding | undefined,
  ) {
    this.#state = state;
    this.#binding = binding;
  }

  /** The visitor of this request's cookie: at once when the cookie was opened here lately and nothing waits on a store. */
  static of(
    bindings: Bindings,
    cookies: VisitorCookies,
    cookieHeader: string | null | undefined,
    mode: VisitorMode,
  ): Maybe<SealedVisitor> {
    const text = cookieIn(cookieHeader, VISITOR_COOKIE, { secure: mode.secure });
    const known = cookies.known(text);
    if (known === undefined) {
      return cookies.open(text).then((state) => SealedVisitor.#with(bindings, cookies, mode, state));
    }
    return SealedVisitor.#with(bindings, cookies, mode, known);
  }

  static #with(bindings: Bindings, cookies: VisitorCookies, mode: VisitorMode, state: Sealed) {
    const { s } = state;
    const make = (binding: VerificationBinding | undefined) =>
      new SealedVisitor(bindings, cookies, mode, state, binding);
    if (s === undefined || cookies.isRetired(s)) return make(undefined);
    if (mode.carries) return make(state.binding);
    const stored = bindings.stored(() => bindings.store.bindings.get(VISITOR_KEY_PREFIX + s));
    return andThen(stored, make);
  }

  get sessionKey(): string {
    if (this.#state.s !== undefined) return this.#state.s;
    this.#newKey ??= randomId();
    return this.#newKey;
  }

  binding(): VerificationBinding | undefined {
    return this.#binding;
  }

  heldBinding(): VerificationBinding | undefined {
    return this.#binding;
  }

  async bind(binding: VerificationBinding): Promise<void> {
    await this.#moveTo(binding);
  }

  /**
   * The first approval this browser sees: a new id holding the binding with `approvedAt`, once.
   * Requests of the same browser that see it while the move runs go on with the old id and send no
   * cookie; nothing moves where the answer may not carry the cookie.
   */
  async approve(binding: VerificationBinding, approvedAt: string): Promise<void> {
    if (!this.mode.sendsCookie || this.#superseded) return;
    const old = this.#state.s;
    if (old === undefined) return this.#moveTo({ ...binding, approvedAt });
    const running = this.cookies.moving(old);
    if (running !== undefined) {
      this.#superseded = true;
      return running;
    }
    return this.cookies.move(old, () => this.#moveTo({ ...binding, approvedAt }));
  }

  /** A new id holding `binding`; the old id is retired (whoever kept its cookie holds nothing). */
  async #moveTo(binding: VerificationBinding): Promise<void> {
    const old = this.#state.s;
    const s = randomId();
    if (!this.mode.carries) {
      const { store } = this.bindings;
      await this.bindings.stored(() => store.bindings.set(VISITOR_KEY_PREFIX + s, binding));
      if (old !== undefined)
        await this.bindings.stored(() => store.bindings.delete(VISITOR_KEY_PREFIX + old));
    }
    if (old !== undefined) this.cookies.retire(old);
    const { decision, ...rest } = this.#state;
    const sameIdentification = this.#binding?.identificationId === binding.identificationId;
    this.#state = {
      ...rest,
      s,
      ...(this.mode.carries ? { binding } : {}),
      ...(this.mode.carries && sameIdentification && decision !== undefined ? { decision } : {}),
    };
    if (!this.mode.carries) delete this.#state.binding;
    this.#binding = binding;
    this.#changed = true;
  }

  async forget(): Promise<void> {
    const old = this.#state.s;
    if (old !== undefined) {
      if (!this.mode.carries) {
        const { store } = this.bindings;
        await this.bindings.stored(() => store.bindings.delete(VISITOR_KEY_PREFIX + old));
      }
      this.cookies.retire(old);
    }
    const { c } = this.#state;
    this.#state = c === undefined ? {} : { c };
    this.#binding = undefined;
    this.#changed = true;
  }

  visit(): VisitMarker | undefined {
    return this.#state.v;
  }

  setVisit(marker: VisitMarker | undefined): void {
    if (marker === undefined && this.#state.v === undefined) return;
    const { v: _ended, ...rest } = this.#state;
    this.#state = marker === undefined ? rest : { ...rest, v: marker };
    this.#changed = true;
  }

  /** What the service last said of this visitor's verification, as the cookie carries it. */
  carriedDecision(identificationId: string): StoredDecision | undefined {
    const binding = this.#binding;
    if (!this.mode.carries || binding === undefined) return undefined;
    return sameIdentification(binding.identificationId, identificationId) ? this.#state.decision : undefined;
  }

  /** The decision this request acted on, for the cookie to carry (no shared store only). */
  carryDecision(decision: StoredDecision): void {
    if (!this.mode.carries || this.#binding === undefined || decision.status === null) return;
    if (carries(this.#state.decision, decision)) return;
    const { status, at, source, reReadAfterMs } = decision;
    this.#state = {
      ...this.#state,
      decision: { status, at, source, ...(reReadAfterMs === undefined ? {} : { reReadAfterMs }) },
    };
    this.#changed = true;
  }

  clientId(): string | undefined {
    return this.#state.c;
  }

  setClientId(id: string): void {
    if (this.#state.c === id) return;
    this.#state = { ...this.#state, c: id };
    this.#changed = true;
  }

  /** Whether this request's answer has a cookie to send (setCookie then has one). */
  get changed(): boolean {
    return this.#changed && !this.#superseded;
  }

  /** The Set-Cookie this request's answer carries; undefined when nothing changed. */
  async setCookie(cookies: VisitorCookies): Promise<string | undefined> {
    if (!this.changed) return undefined;
    const { secure } = this.mode;
    const state = this.#state;
    if (isEmpty(state)) return serializeClearCookie(VISITOR_COOKIE, { secure });
    return serializeCookie(VISITOR_COOKIE, await cookies.seal(state), {
      secure,
      maxAge: COOKIE_MAX_AGE_SECONDS,
    });
  }
}

/**
 * The cookie already says what `decision` says: the same status from the same source, as new to
 * within a second (a read's start and its recording differ by moments). Else it is sealed again.
 */
function carries(carried: StoredDecision | undefined, decision: StoredDecision): boolean {
  return (
    carried !== undefined &&
    carried.status === decision.status &&
    carried.source === decision.source &&
    carried.reReadAfterMs === decision.reReadAfterMs &&
    decision.at - carried.at < 1000
  );
}

import type { VerificationBinding } from '../bindings/binding.js';
import type { Bindings } from '../bindings/bindings.js';
import type { VisitMarker, Visitor } from '../bindings/kit-request.js';
import { markerOf, VISIT_KEY } from '../decisions/visit-marker.js';
import { BoundedMap } from '../shared/lru.js';
import { andThen, type Maybe } from '../shared/maybe.js';
import { cookieIn, serializeClearCookie, serializeCookie } from '../web/cookie-header.js';
import { type CookieSecret, sealCookie, unsealCookie } from '../web/sealed-cookie.js';

/** The anonymous visitor's cookie: sealed, `__Host-` over https (cookie-header.ts). */
export const VISITOR_COOKIE = 'vk_visitor';
/** Where an anonymous visitor's binding is kept: the store's bindings, beside the accounts'. */
export const VISITOR_KEY_PREFIX = 'anonymous-visitor:';
/** Browsers keep a cookie at most 400 days; the binding's own retention ends it sooner. */
const COOKIE_MAX_AGE_SECONDS = 400 * 24 * 3600;

/** What the sealed cookie holds: no binding, no key, no contact; only ids and the visit. */
interface Sealed {
  /** This browser session's random id: the binding is kept under it in the store. */
  s?: string;
  /** The visit marker (decisions.ts). */
  v?: VisitMarker;
  /** The creation limits' random id of this browser (creation-ticket.ts). */
  c?: string;
}

const randomId = () => crypto.randomUUID();

function parseSealed(value: Record<string, unknown> | undefined): Sealed {
  if (value === undefined) return {};
  const { s, c } = value;
  const v = markerOf({ [VISIT_KEY]: value.v });
  return {
    ...(typeof s === 'string' && s.length > 0 && s.length <= 64 ? { s } : {}),
    ...(v === undefined ? {} : { v }),
    ...(typeof c === 'string' && c.length <= 64 ? { c } : {}),
  };
}

/** Cookies opened or sealed lately, kept: a visit's requests send one cookie again and again. */
const OPENED_COOKIES = 50_000;

/**
 * The visitor cookie's seal under the kit's secret, with the texts this process opened or sealed
 * lately: a sealed text always opens to the same value, so a visit's next request costs no decryption.
 * Only texts that opened are kept (a forged one is decrypted, and refused, each time).
 */
export class VisitorCookies {
  readonly #opened = new BoundedMap<string, Sealed>(OPENED_COOKIES);

  constructor(readonly secret: CookieSecret) {}

  /** What `text` holds when it was opened or sealed here lately (no text: nothing); else undefined. */
  known(text: string | undefined): Sealed | undefined {
    return text === undefined ? {} : this.#opened.get(text);
  }

  async open(text: string | undefined): Promise<Sealed> {
    const known = this.known(text);
    if (known !== undefined || text === undefined) return known ?? {};
    const opened = await unsealCookie(text, this.secret);
    if (opened === undefined) return {};
    const state = parseSealed(opened);
    this.#opened.set(text, state);
    return state;
  }

  async seal(state: Sealed): Promise<string> {
    const text = await sealCookie(state, this.secret);
    this.#opened.set(text, state);
    return text;
  }
}

/**
 * An anonymous visitor without express-session: a sealed cookie (AES-GCM, `secret`) names a random
 * session id, and the binding is kept in the store under it. The seal is the proof: nobody can make
 * a cookie naming another's id. A copy kept from before forget() or a restart of a memory store finds
 * nothing; approval moves the binding to a new id (the fixation rule of the Express kit).
 */
export class SealedVisitor implements Visitor {
  #state: Sealed;
  #binding: VerificationBinding | undefined;
  #changed = false;
  /**
   * A visitor without a session id counts as this request's own, as express-session gives each new
   * browser its own id: two new visitors never share one key (one would be told 409 by the other's
   * creation, and they would share one read budget).
   */
  #newKey: string | undefined;

  private constructor(
    private readonly bindings: Bindings,
    state: Sealed,
    binding: VerificationBinding | undefined,
  ) {
    this.#state = state;
    this.#binding = binding;
  }

  /** The visitor of this request's cookie; its binding read from the store once, here. */
  /** At once when the cookie was opened here lately and the store answers at once (a visit's requests). */
  static of(
    bindings: Bindings,
    cookies: VisitorCookies,
    cookieHeader: string | null | undefined,
    secure: boolean,
  ): SealedVisitor | Promise<SealedVisitor> {
    const text = cookieIn(cookieHeader, VISITOR_COOKIE, { secure });
    const known = cookies.known(text);
    if (known === undefined) return cookies.open(text).then((state) => SealedVisitor.#with(bindings, state));
    return SealedVisitor.#with(bindings, known);
  }

  static #with(bindings: Bindings, state: Sealed): Maybe<SealedVisitor> {
    const { s } = state;
    if (s === undefined) return new SealedVisitor(bindings, state, undefined);
    const binding = bindings.stored(() => bindings.store.bindings.get(VISITOR_KEY_PREFIX + s));
    return andThen(binding, (found) => new SealedVisitor(bindings, state, found));
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

  async approve(binding: VerificationBinding, approvedAt: string): Promise<void> {
    await this.#moveTo({ ...binding, approvedAt });
  }

  /** A new session id holding `binding`; the old id's binding goes (whoever knew it holds nothing). */
  async #moveTo(binding: VerificationBinding): Promise<void> {
    const { store } = this.bindings;
    const old = this.#state.s;
    const s = randomId();
    await this.bindings.stored(() => store.bindings.set(VISITOR_KEY_PREFIX + s, binding));
    if (old !== undefined) await this.bindings.stored(() => store.bindings.delete(VISITOR_KEY_PREFIX + old));
    this.#state = { ...this.#state, s };
    this.#binding = binding;
    this.#changed = true;
  }

  async forget(): Promise<void> {
    const old = this.#state.s;
    if (old !== undefined) {
      const { store } = this.bindings;
      await this.bindings.stored(() => store.bindings.delete(VISITOR_KEY_PREFIX + old));
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

  clientId(): string | undefined {
    return this.#state.c;
  }

  setClientId(id: string): void {
    if (this.#state.c === id) return;
    this.#state = { ...this.#state, c: id };
    this.#changed = true;
  }

  /** Whether this request changed what the cookie holds (setCookie then has one to send). */
  get changed(): boolean {
    return this.#changed;
  }

  /** The Set-Cookie this request's answer carries; undefined when nothing changed. */
  async setCookie(cookies: VisitorCookies, secure: boolean): Promise<string | undefined> {
    if (!this.#changed) return undefined;
    const state = this.#state;
    if (state.s === undefined && state.v === undefined && state.c === undefined) {
      return serializeClearCookie(VISITOR_COOKIE, { secure });
    }
    return serializeCookie(VISITOR_COOKIE, await cookies.seal(state), {
      secure,
      maxAge: COOKIE_MAX_AGE_SECONDS,
    });
  }
}

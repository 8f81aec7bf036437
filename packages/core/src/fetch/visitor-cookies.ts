import { BoundedMap } from '../shared/lru.js';
import { type CookieSecret, sealCookie, unsealCookie } from '../web/sealed-cookie.js';
import { parseSealed, type Sealed, toSealable } from './sealed-state.js';

/** Cookies opened or sealed lately, kept: a visit's requests send one cookie again and again. */
const OPENED_COOKIES = 50_000;
/** Visitor ids this process retired, kept at most (the least recently retired go first). */
const RETIRED_IDS = 100_000;
/** How long a retired id is remembered: a month past a move or a forget, a copy still holds nothing here. */
const RETIRED_FOR_MS = 30 * 24 * 3_600_000;

/** The cache's key of a sealed text: its last 24 characters, within its GCM tag. */
const keyOf = (text: string) => text.slice(-24);

/**
 * The visitor cookie's seal under the kit's secret, and what this process knows of visitor ids:
 * - the texts it opened or sealed lately (a sealed text always opens to the same value, so a
 *   visit's next request costs no decryption; only texts that opened are kept: a forged one is
 *   decrypted, and refused, each time);
 * - the ids it retired (an approval moved the visitor to a new id, or forget()): a copy of such a
 *   cookie holds nothing on this process, whatever it carries;
 * - the approvals moving an id right now (single-flight: one new id per old one).
 * One per kit.
 */
export class VisitorCookies {
  // Keyed by the text's end (its GCM tag, unique to each seal): a lookup hashes 24 characters, not the
  // whole 800-byte cookie; the whole text is compared on a hit.
  readonly #opened = new BoundedMap<string, { text: string; state: Sealed }>(OPENED_COOKIES);
  readonly #retired: BoundedMap<string, true>;
  readonly #moving = new Map<string, Promise<void>>();

  constructor(
    readonly secret: CookieSecret,
    private readonly now: () => number = Date.now,
  ) {
    this.#retired = new BoundedMap(RETIRED_IDS, RETIRED_FOR_MS, now);
  }

  /** What `text` holds when it was opened or sealed here lately (no text: nothing); else undefined. */
  known(text: string | undefined): Sealed | undefined {
    if (text === undefined) return {};
    const entry = this.#opened.get(keyOf(text));
    return entry?.text === text ? entry.state : undefined;
  }

  async open(text: string | undefined): Promise<Sealed> {
    const known = this.known(text);
    if (known !== undefined || text === undefined) return known ?? {};
    const opened = await unsealCookie(text, this.secret);
    if (opened === undefined) return {};
    const state = parseSealed(opened, this.now());
    this.#opened.set(keyOf(text), { text, state });
    return state;
  }

  async seal(state: Sealed): Promise<string> {
    const text = await sealCookie(toSealable(state), this.secret);
    this.#opened.set(keyOf(text), { text, state });
    return text;
  }

  retire(id: string): void {
    this.#retired.set(id, true);
  }

  isRetired(id: string): boolean {
    return this.#retired.has(id);
  }

  /** The move of `id` under way, if one is. */
  moving(id: string): Promise<void> | undefined {
    return this.#moving.get(id);
  }

  /** Runs `move` as the one move of `id`: while it runs, moving(id) answers it. */
  async move(id: string, move: () => Promise<void>): Promise<void> {
    const running = move();
    this.#moving.set(id, running);
    try {
      await running;
    } finally {
      this.#moving.delete(id);
    }
  }
}

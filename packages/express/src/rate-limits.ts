import { ERROR_CODE, kitError } from './errors.js';
import { BoundedMap } from './lru.js';
import type { SessionLimit } from './options.js';

/** Long-polls one verification may hold open at once (tabs of one person). */
export const LONG_POLLS_PER_VERIFICATION = 4;
const LONG_POLL_RETRY_AFTER_SECONDS = 2;

/** A refusal that tells the client when to ask again (the route sets Retry-After). */
export function tooMany(code: 'TOO_MANY_SESSIONS' | 'TOO_MANY_LONG_POLLS', retryAfterSeconds: number) {
  const error = kitError(
    ERROR_CODE[code],
    code === 'TOO_MANY_SESSIONS'
      ? 'too many new verifications from here: try again after Retry-After'
      : 'too many status requests are waiting: try again after Retry-After',
  );
  return Object.assign(error, { retryAfterSeconds });
}

/**
 * The kit's own limits against amplification: new upstream sessions per client and per address in
 * a fixed window, and open long-polls per verification and per process.
 */
export class RateLimits {
  readonly #created = new BoundedMap<string, { count: number; resetAt: number }>(100_000);
  readonly #polls = new Map<string, number>();
  #pollsOpen = 0;

  constructor(
    private readonly options: { sessionLimit: SessionLimit | false; maxLongPolls: number },
    private readonly now: () => number,
  ) {}

  /** Counts one creation for `client` (account or session) and `ip`; throws TOO_MANY_SESSIONS beyond. */
  takeCreation(client: string, ip: string | undefined): void {
    const limit = this.options.sessionLimit;
    if (limit === false) return;
    const keys: [string, number][] = [[`c:${client}`, limit.perClient]];
    if (ip !== undefined) keys.push([`i:${ip}`, limit.perIp]);
    const now = this.now();
    const windows = keys.map(([key, max]) => {
      let window = this.#created.get(key);
      if (window === undefined || window.resetAt <= now) {
        window = { count: 0, resetAt: now + limit.windowSeconds * 1000 };
        this.#created.set(key, window, limit.windowSeconds * 1000);
      }
      return { window, max };
    });
    const full = windows.find(({ window, max }) => window.count >= max);
    if (full !== undefined) {
      throw tooMany('TOO_MANY_SESSIONS', Math.max(1, Math.ceil((full.window.resetAt - now) / 1000)));
    }
    for (const { window } of windows) window.count++;
  }

  /** Opens a long-poll slot for this identification; throws TOO_MANY_LONG_POLLS when none is left. */
  openLongPoll(identificationId: string): () => void {
    const open = this.#polls.get(identificationId) ?? 0;
    if (open >= LONG_POLLS_PER_VERIFICATION || this.#pollsOpen >= this.options.maxLongPolls) {
      throw tooMany('TOO_MANY_LONG_POLLS', LONG_POLL_RETRY_AFTER_SECONDS);
    }
    this.#polls.set(identificationId, open + 1);
    this.#pollsOpen++;
    let closed = false;
    return () => {
      if (closed) return;
      closed = true;
      this.#pollsOpen--;
      const left = (this.#polls.get(identificationId) ?? 1) - 1;
      if (left <= 0) this.#polls.delete(identificationId);
      else this.#polls.set(identificationId, left);
    };
  }
}

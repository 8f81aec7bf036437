import { ERROR_CODE, kitError } from '../shared/errors.js';
import type { Instrument } from '../shared/instrumentation.js';
import type { Log } from '../shared/log.js';
import { type Counter, type CountIn, type CountState, isRefusal } from './counter.js';

/** Long-polls one verification may hold open at once (tabs of one person). */
export const LONG_POLLS_PER_VERIFICATION = 4;
const LONG_POLL_RETRY_AFTER_SECONDS = 2;
export const DEFAULT_LIMIT_PREFIX = 'verify-kit:limit:';

/**
 * What the creation limits use of a node-redis (v6) client: `createClient()` from `redis` fits.
 * Structural, so the kit's types do not depend on node-redis's generics.
 */
export interface LimitRedisClient {
  readonly isReady: boolean;
  eval(...args: never[]): Promise<unknown>;
  multi(): unknown;
  del(...args: never[]): Promise<unknown>;
}

/** `sessionLimit` once validated (options.ts), every default filled in. */
export interface ResolvedSessionLimit {
  perClient: number;
  perIp: number;
  windowSeconds: number;
  redis?: LimitRedisClient | undefined;
  prefix: string;
}

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

/** What a creation is counted under: the address, and the browser and account when known. */
export interface CreationKeys {
  address: string;
  clients: readonly string[];
}

/**
 * The kit's own limits against amplification: new upstream sessions per client and per address in
 * a window (counter.ts: in memory, or in Redis for every instance), and open long-polls
 * per verification and per process (always in this process).
 */
export class RateLimits {
  readonly #perAddress?: Counter;
  readonly #perClient?: Counter;
  readonly #redis?: LimitRedisClient | undefined;
  // Kept apart: the Redis wrapper's own `points` is 0.
  readonly #points = { address: 0, client: 0 };
  #redisDown = false;
  readonly #polls = new Map<string, number>();
  #pollsOpen = 0;

  constructor(
    limit: ResolvedSessionLimit | false,
    private readonly maxLongPolls: number,
    private readonly log: Log,
    countIn: CountIn,
    private readonly instrument?: Instrument,
  ) {
    if (limit === false) return;
    const make = (name: string, points: number) =>
      countIn(limit.redis, { keyPrefix: `${limit.prefix}${name}`, points, duration: limit.windowSeconds });
    this.#points.address = limit.perIp;
    this.#points.client = limit.perClient;
    this.#perAddress = make('address', limit.perIp);
    this.#perClient = make('client', limit.perClient);
    this.#redis = limit.redis;
  }

  /**
   * Refuses (TOO_MANY_SESSIONS) when the address or a client is already at its limit; counts
   * nothing. Called before anything else of the request is awaited, so a refusal costs no body
   * read, no store or upstream call, and touches no session.
   */
  async check(keys: CreationKeys): Promise<void> {
    // A failed read refuses nothing here: take() decides, and never lets a creation through uncounted.
    const found = await Promise.all(this.#each(keys, (limiter, key) => limiter.get(key).catch(() => null)));
    for (const [index, res] of found.entries()) {
      const points = index === 0 ? this.#points.address : this.#points.client;
      if (res !== null && res.consumedPoints >= points) throw this.#refused(refusal(res));
    }
  }

  /**
   * Counts one creation under every key, each atomically in its store; when one is full, gives the
   * others their point back and throws TOO_MANY_SESSIONS.
   */
  async take(keys: CreationKeys): Promise<void> {
    this.#noteRedis();
    const counted = await Promise.allSettled(this.#each(keys, (limiter, key) => limiter.consume(key)));
    const refused = counted.find((result) => result.status === 'rejected');
    if (refused === undefined) return;
    await Promise.all(
      this.#each(keys, (limiter, key, index) =>
        counted[index]?.status === 'fulfilled' ? limiter.reward(key).catch(() => undefined) : undefined,
      ),
    );
    const reason: unknown = refused.reason;
    // Both stores failed (Redis and memory): refuse rather than let the creation through uncounted.
    throw this.#refused(isRefusal(reason) ? refusal(reason) : tooMany('TOO_MANY_SESSIONS', 1));
  }

  /** The refusal, told to the instrumentation. */
  #refused<E>(error: E, limit: 'sessions' | 'long-polls' = 'sessions'): E {
    this.instrument?.({ type: 'limit.refused', limit });
    return error;
  }

  #each<T>(keys: CreationKeys, call: (limiter: Counter, key: string, index: number) => T): T[] {
    if (this.#perAddress === undefined || this.#perClient === undefined) return [];
    const perClient = this.#perClient;
    return [
      call(this.#perAddress, keys.address, 0),
      ...keys.clients.map((key, index) => call(perClient, key, index + 1)),
    ];
  }

  /** Logs the first count made in this process because Redis is down, and its return. */
  #noteRedis(): void {
    if (this.#redis === undefined) return;
    const down = !this.#redis.isReady;
    if (down === this.#redisDown) return;
    this.#redisDown = down;
    if (this.#redisDown) {
      this.log.warn(
        'sessionLimit: redis is not connected; creations are counted in this process until it is back',
      );
    } else this.log.info('sessionLimit: redis is back; creations are counted there again');
  }

  /** Opens a long-poll slot for this identification; throws TOO_MANY_LONG_POLLS when none is left. */
  openLongPoll(identificationId: string): () => void {
    const open = this.#polls.get(identificationId) ?? 0;
    if (open >= LONG_POLLS_PER_VERIFICATION || this.#pollsOpen >= this.maxLongPolls) {
      throw this.#refused(tooMany('TOO_MANY_LONG_POLLS', LONG_POLL_RETRY_AFTER_SECONDS), 'long-polls');
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

function refusal(res: CountState) {
  return tooMany('TOO_MANY_SESSIONS', Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
}

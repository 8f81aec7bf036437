import { BoundedMap } from '../shared/lru.js';

/** Where a key's window stands (rate-limiter-flexible's RateLimiterRes has this shape). */
export interface CountState {
  consumedPoints: number;
  remainingPoints: number;
  /** ms until the window ends. */
  msBeforeNext: number;
}

/**
 * A count per key in fixed windows: `consume` resolves within the limit and rejects with the
 * CountState beyond it (or with an Error when the count itself failed); rate-limiter-flexible's
 * limiters fit it as they are.
 */
export interface Counter {
  consume(key: string, points?: number): Promise<CountState>;
  reward(key: string, points?: number): Promise<unknown>;
  get(key: string): Promise<CountState | null>;
  /** The key refused for `seconds` (its window full until then). */
  block(key: string, seconds: number): Promise<unknown>;
}

export interface CounterOptions {
  keyPrefix: string;
  /** Points per window. */
  points: number;
  /** The window, in seconds. */
  duration: number;
}

/**
 * Makes the kit's counters: in this process, or counting in `redis` (the `LimitRedisClient` of
 * the options) when the shell supports it. The Node shells pass rate-limiter-flexible's.
 */
export type CountIn = (redis: unknown, options: CounterOptions) => Counter;

/** A refusal of a count (the window is full), as opposed to a count that failed. */
export function isRefusal(value: unknown): value is CountState {
  const state = value as Partial<CountState> | null;
  return (
    typeof state?.msBeforeNext === 'number' &&
    typeof state.consumedPoints === 'number' &&
    typeof state.remainingPoints === 'number'
  );
}

/** Keys counted at once in one process at most (the least recently used go first). */
const MEMORY_KEYS = 1_000_000;

/**
 * Counts in this process's memory, on Web APIs only: the default where no shell gives another
 * (Workers, Deno, Bun). A window starts at a key's first point and lasts `duration` seconds.
 */
export function memoryCounter({ points, duration }: CounterOptions, now: () => number = Date.now): Counter {
  const windowMs = duration * 1000;
  const windows = new BoundedMap<string, { endsAt: number; consumed: number }>(MEMORY_KEYS, windowMs, now);
  const stateOf = (window: { endsAt: number; consumed: number }): CountState => ({
    consumedPoints: window.consumed,
    remainingPoints: Math.max(0, points - window.consumed),
    msBeforeNext: Math.max(0, window.endsAt - now()),
  });
  const current = (key: string) => {
    const window = windows.get(key);
    return window !== undefined && now() < window.endsAt ? window : undefined;
  };
  return {
    async consume(key, taken = 1) {
      let window = current(key);
      if (window === undefined) {
        window = { endsAt: now() + windowMs, consumed: 0 };
        windows.set(key, window);
      }
      window.consumed += taken;
      const state = stateOf(window);
      if (window.consumed > points) throw state;
      return state;
    },
    async reward(key, given = 1) {
      const window = current(key);
      if (window !== undefined) window.consumed = Math.max(0, window.consumed - given);
    },
    async get(key) {
      const window = current(key);
      return window === undefined ? null : stateOf(window);
    },
    async block(key, seconds) {
      windows.set(key, { endsAt: now() + seconds * 1000, consumed: points + 1 }, seconds * 1000);
    },
  };
}

/** The counters of a kit no shell gave any: in memory (a `redis` given anyway is not used). */
export const countInMemory: CountIn = (_redis, options) => memoryCounter(options);

import { LRUCache } from 'lru-cache';

/** How often every live BoundedMap drops its expired entries, traffic or not. */
export const SWEEP_INTERVAL_MS = 30_000;

// Each map's own timer, unref'd (it never keeps a process alive), holding the map only weakly: a map
// nobody holds any more is collected and its timer stops. lru-cache's own ttlAutopurge would set a
// timer per entry instead.
function sweepEvery(map: { sweep(): void }, ms: number): void {
  const ref = new WeakRef(map);
  const timer: NodeJS.Timeout = setInterval(() => {
    const target = ref.deref();
    if (target === undefined) clearInterval(timer);
    else target.sweep();
  }, ms).unref();
}

/**
 * A map bounded in size (least recently used goes first) with an optional time to live per entry,
 * on lru-cache. Every per-user memory of the kit goes through one of these, so a flood of users or
 * webhooks cannot grow the process without bound, and memory follows the time to live even when
 * traffic stops (every SWEEP_INTERVAL_MS).
 */
export class BoundedMap<K extends {}, V extends {}> {
  readonly #cache: LRUCache<K, V>;

  constructor(maxEntries: number, ttlMs = Number.POSITIVE_INFINITY, now: () => number = Date.now) {
    const ttl = Number.isFinite(ttlMs) ? ttlMs : 0;
    // ttlResolution 0: `now` is asked each time (a test's clock moves without timers).
    this.#cache = new LRUCache<K, V>({ max: maxEntries, ttl, ttlResolution: 0, perf: { now } });
    if (ttl > 0) sweepEvery(this, SWEEP_INTERVAL_MS);
  }

  /** Drops every expired entry. */
  sweep(): void {
    this.#cache.purgeStale();
  }

  get(key: K): V | undefined {
    return this.#cache.get(key);
  }

  has(key: K): boolean {
    return this.#cache.has(key);
  }

  set(key: K, value: V, ttlMs?: number): void {
    this.#cache.set(key, value, ttlMs === undefined ? undefined : { ttl: ttlMs });
  }

  delete(key: K): void {
    this.#cache.delete(key);
  }

  clear(): void {
    this.#cache.clear();
  }

  /** Entries held, expired ones not yet dropped included. */
  get size(): number {
    return this.#cache.size;
  }
}

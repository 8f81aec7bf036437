/** How often every live BoundedMap drops its expired entries, traffic or not. */
export const SWEEP_INTERVAL_MS = 30_000;

// Each map's own timer, unref'd (it never keeps a process alive), holding the map only weakly: a map
// nobody holds any more is collected and its timer stops.
function sweepEvery(map: { sweep(): void }, ms: number): void {
  const ref = new WeakRef(map);
  const timer: NodeJS.Timeout = setInterval(() => {
    const target = ref.deref();
    if (target === undefined) clearInterval(timer);
    else target.sweep();
  }, ms).unref();
}

/**
 * A Map bounded in size (least recently set goes first) with an optional time to live per entry.
 * Every per-user memory of the kit goes through one of these, so a flood of users or webhooks
 * cannot grow the process without bound, and memory follows the time to live even when traffic
 * stops (expired entries are dropped as new ones arrive, and every SWEEP_INTERVAL_MS).
 */
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, { value: V; expiresAt: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs = Number.POSITIVE_INFINITY,
    private readonly now: () => number = Date.now,
  ) {
    if (Number.isFinite(ttlMs)) sweepEvery(this, SWEEP_INTERVAL_MS);
  }

  /** Drops every expired entry. */
  sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key);
  }

  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  set(key: K, value: V, ttlMs = this.ttlMs): void {
    const now = this.now();
    this.#entries.delete(key);
    this.#entries.set(key, { value, expiresAt: now + ttlMs });
    // Oldest first: drop what has expired at the front, so memory follows the TTL, not only the size.
    for (const [oldest, entry] of this.#entries) {
      if (entry.expiresAt > now) break;
      this.#entries.delete(oldest);
    }
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value as K;
      this.#entries.delete(oldest);
    }
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}

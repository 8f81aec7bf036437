/**
 * A Map bounded in size (least recently set goes first) with an optional time to live per entry.
 * Every per-user memory of the kit goes through one of these, so a flood of users or webhooks
 * cannot grow the process without bound.
 */
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, { value: V; expiresAt: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs = Number.POSITIVE_INFINITY,
    private readonly now: () => number = Date.now,
  ) {}

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

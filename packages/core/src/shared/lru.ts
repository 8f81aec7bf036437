// Our own LRU, Web APIs only: lru-cache 11 imports node:diagnostics_channel (its browser build needs the
// `browser` condition) and preallocates for maxEntries; quick-lru and tiny-lru ignore the given clock.

/** How often every live BoundedMap that holds entries with a time to live drops the expired ones. */
export const SWEEP_INTERVAL_MS = 30_000;

/** No time to live. */
const NEVER = Number.POSITIVE_INFINITY;

/** No entry: the end of the list. */
const NONE = -1;

// Each map's own timer, unref'd where the runtime can (it never keeps a Node process alive), holding
// the map only weakly: a map nobody holds any more is collected and its timer stops.
function sweepEvery(map: { sweep(): void }, ms: number): void {
  const ref = new WeakRef(map);
  const timer: ReturnType<typeof setInterval> = setInterval(() => {
    const target = ref.deref();
    if (target === undefined) clearInterval(timer);
    else target.sweep();
  }, ms);
  (timer as { unref?: () => unknown }).unref?.();
}

/**
 * A map bounded in size (least recently used goes first) with an optional time to live per entry.
 * Every per-user memory of the kit goes through one of these, so a flood of users or webhooks cannot
 * grow the process without bound, and memory follows the time to live even when traffic stops (every
 * SWEEP_INTERVAL_MS). A time to live of 0 or Infinity is none; an entry expires once more than its
 * time to live has passed on `now` since it was set.
 */
export class BoundedMap<K extends {}, V extends {}> {
  // Each entry has a slot: its key and value in two arrays, its expiry and its two neighbours in a
  // doubly linked list (least recently used first) in typed arrays, which grow as entries come (none
  // is allocated up front) up to maxEntries. A use moves an entry to the newest end in O(1); the
  // oldest is pushed out first; a dropped entry's slot is reused.
  readonly #slots = new Map<K, number>();
  #keys: (K | undefined)[] = [];
  #values: (V | undefined)[] = [];
  #expiresAt = new Float64Array(0);
  #older = new Int32Array(0);
  #newer = new Int32Array(0);
  #free: number[] = [];
  #oldest = NONE;
  #newest = NONE;
  readonly #maxEntries: number;
  readonly #ttlMs: number;
  readonly #now: () => number;
  #sweeping = false;

  constructor(maxEntries: number, ttlMs = NEVER, now: () => number = Date.now) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1 || maxEntries > 2 ** 31 - 1) {
      throw new RangeError(`BoundedMap: maxEntries must be a positive integer, not ${maxEntries}`);
    }
    if (!(ttlMs >= 0)) throw new RangeError(`BoundedMap: ttlMs must be 0 or more, not ${ttlMs}`);
    this.#maxEntries = maxEntries;
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  /** Drops every expired entry. */
  sweep(): void {
    const now = this.#now();
    for (let slot = this.#oldest; slot !== NONE; ) {
      const newer = this.#newer[slot]!;
      if (now > this.#expiresAt[slot]!) this.#remove(slot);
      slot = newer;
    }
  }

  get(key: K): V | undefined {
    const slot = this.#live(key);
    if (slot === NONE) return undefined;
    this.#makeNewest(slot);
    return this.#values[slot];
  }

  has(key: K): boolean {
    return this.#live(key) !== NONE;
  }

  /** Sets `key` as the most recently used, its time to live `ttlMs` (the map's when undefined). */
  set(key: K, value: V, ttlMs: number = this.#ttlMs): void {
    // 0 (and NaN) is no time to live, as Infinity is; a negative one has already run out.
    const none = ttlMs === 0 || ttlMs === NEVER || Number.isNaN(ttlMs);
    const expiresAt = none ? NEVER : this.#now() + ttlMs;
    if (expiresAt !== NEVER && !this.#sweeping) {
      this.#sweeping = true;
      sweepEvery(this, SWEEP_INTERVAL_MS);
    }
    let slot = this.#slots.get(key);
    if (slot !== undefined) {
      this.#values[slot] = value;
      this.#expiresAt[slot] = expiresAt;
      this.#makeNewest(slot);
      return;
    }
    if (this.#slots.size >= this.#maxEntries) this.#remove(this.#oldest);
    slot = this.#free.pop() ?? this.#newSlot();
    this.#slots.set(key, slot);
    this.#keys[slot] = key;
    this.#values[slot] = value;
    this.#expiresAt[slot] = expiresAt;
    this.#append(slot);
  }

  delete(key: K): void {
    const slot = this.#slots.get(key);
    if (slot !== undefined) this.#remove(slot);
  }

  clear(): void {
    this.#slots.clear();
    this.#keys = [];
    this.#values = [];
    this.#expiresAt = new Float64Array(0);
    this.#older = new Int32Array(0);
    this.#newer = new Int32Array(0);
    this.#free = [];
    this.#oldest = NONE;
    this.#newest = NONE;
  }

  /** Entries held, expired ones not yet dropped included. */
  get size(): number {
    return this.#slots.size;
  }

  /** The slot of `key` unless it expired (then dropped); its place in the list is left as it is. */
  #live(key: K): number {
    const slot = this.#slots.get(key);
    if (slot === undefined) return NONE;
    const expiresAt = this.#expiresAt[slot]!;
    if (expiresAt === NEVER || this.#now() <= expiresAt) return slot;
    this.#remove(slot);
    return NONE;
  }

  /** A slot never used yet; the typed arrays double (at most to maxEntries) when full. */
  #newSlot(): number {
    const slot = this.#keys.length;
    if (slot === this.#expiresAt.length) {
      const capacity = Math.min(this.#maxEntries, Math.max(16, slot * 2));
      const expiresAt = new Float64Array(capacity);
      const older = new Int32Array(capacity);
      const newer = new Int32Array(capacity);
      expiresAt.set(this.#expiresAt);
      older.set(this.#older);
      newer.set(this.#newer);
      [this.#expiresAt, this.#older, this.#newer] = [expiresAt, older, newer];
    }
    this.#keys.push(undefined);
    this.#values.push(undefined);
    return slot;
  }

  #append(slot: number): void {
    this.#older[slot] = this.#newest;
    this.#newer[slot] = NONE;
    if (this.#newest === NONE) this.#oldest = slot;
    else this.#newer[this.#newest] = slot;
    this.#newest = slot;
  }

  #makeNewest(slot: number): void {
    if (slot === this.#newest) return;
    this.#unlink(slot);
    this.#append(slot);
  }

  #remove(slot: number): void {
    this.#slots.delete(this.#keys[slot]!);
    this.#unlink(slot);
    this.#keys[slot] = undefined;
    this.#values[slot] = undefined;
    this.#free.push(slot);
  }

  #unlink(slot: number): void {
    const older = this.#older[slot]!;
    const newer = this.#newer[slot]!;
    if (older === NONE) this.#oldest = newer;
    else this.#newer[older] = newer;
    if (newer === NONE) this.#newest = older;
    else this.#older[newer] = older;
  }
}

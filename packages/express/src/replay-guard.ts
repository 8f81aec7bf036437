import { BoundedMap } from './lru.js';

/**
 * Remembers accepted `webhook-id`s long enough to outlive the timestamp tolerance (a replay older
 * than that is refused as stale anyway). Bounded: in one process, per kit.
 */
export class ReplayGuard {
  readonly #seen: BoundedMap<string, true>;

  constructor(now: () => number, ttlMs = 2 * 5 * 60_000, maxEntries = 100_000) {
    this.#seen = new BoundedMap(maxEntries, ttlMs, now);
  }

  seen(id: string): boolean {
    return this.#seen.has(id);
  }

  remember(id: string): void {
    this.#seen.set(id, true);
  }
}

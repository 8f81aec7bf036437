import { BoundedMap } from '../shared/lru.js';

/**
 * Where accepted `webhook-id`s are remembered so that a replay is refused. The kit always keeps its
 * own in-process memory; a shared store (e.g. Redis `SET NX EX`) also refuses a replay that reaches
 * another instance behind a load balancer.
 */
export interface ReplayStore {
  /**
   * Records the delivery id for `ttlSeconds`: true when it was not recorded yet (accept), false when
   * it was (a replay). Must be atomic across instances. Throwing or rejecting makes the kit fall back
   * to its in-process memory (logged): a replay to another instance then costs one re-read.
   */
  claim(id: string, ttlSeconds: number): boolean | Promise<boolean>;
}

/** Long enough to outlive the timestamp tolerance (a replay older than that is refused as stale). */
export const REPLAY_TTL_SECONDS = 2 * 5 * 60;

/** One process, bounded: the kit's own memory of accepted webhook-ids. */
export class MemoryReplayStore implements ReplayStore {
  readonly #seen: BoundedMap<string, true>;

  constructor(now: () => number, maxEntries = 100_000) {
    this.#seen = new BoundedMap(maxEntries, REPLAY_TTL_SECONDS * 1000, now);
  }

  seen(id: string): boolean {
    return this.#seen.has(id);
  }

  claim(id: string, ttlSeconds = REPLAY_TTL_SECONDS): boolean {
    if (this.#seen.has(id)) return false;
    this.#seen.set(id, true, ttlSeconds * 1000);
    return true;
  }
}

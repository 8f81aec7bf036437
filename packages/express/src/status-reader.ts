import {
  ERROR_CODES,
  type Identification,
  isVerifyKitError,
  type VerifyClient,
  VerifyKitError,
} from '@verify-kit/client';
import { identificationKey, sameIdentification } from './identification-key.js';
import { BoundedMap } from './lru.js';

export interface ReadOptions {
  /** Reuse a read younger than this (ms). 0: a new upstream read (joined if one is in flight). */
  maxAgeMs?: number;
}

interface InFlight {
  promise: Promise<Identification>;
}

export interface ReaderHooks {
  /** Upstream reads per identification per second; beyond, a read under 1 s old is served. */
  maxReadsPerSecond: number;
  /**
   * Each upstream read that answered (not a reuse), with when it started. The read's callers get
   * their answer once a returned promise settles (the stored decision is written first).
   */
  onRead?(identificationId: string, identification: Identification, startedAt: number): void | Promise<void>;
}

const PRESSURE_WINDOW_MS = 1000;

/**
 * Every status read of the kit (gate, /status, long-polls, statusOf) goes through here: concurrent
 * reads of one identification share one upstream call (single-flight), and a recent read may be
 * reused when the caller allows it. A webhook invalidates both, so the next read is new.
 */
export class StatusReader {
  readonly #inFlight = new Map<string, InFlight>();
  readonly #latest: BoundedMap<string, { identification: Identification; readAt: number }>;
  // Upstream reads started per identification in the current one-second window.
  readonly #pressure: BoundedMap<string, { count: number }>;

  constructor(
    private readonly client: VerifyClient,
    private readonly now: () => number,
    private readonly hooks: ReaderHooks = { maxReadsPerSecond: Number.POSITIVE_INFINITY },
  ) {
    this.#latest = new BoundedMap(50_000, 3_600_000, now);
    this.#pressure = new BoundedMap(50_000, PRESSURE_WINDOW_MS, now);
  }

  read(identificationId: string, { maxAgeMs = 0 }: ReadOptions = {}): Promise<Identification> {
    const key = identificationKey(identificationId);
    // Under pressure (a flood of gated requests for one person) a read under a second old is as
    // good; a webhook's invalidate() removes it, so a change is never hidden behind it.
    const allowedAge = this.#underPressure(key) ? Math.max(maxAgeMs, PRESSURE_WINDOW_MS) : maxAgeMs;
    if (allowedAge > 0) {
      const latest = this.#latest.get(key);
      if (latest !== undefined && this.now() - latest.readAt < allowedAge)
        return Promise.resolve(latest.identification);
    }
    const pending = this.#inFlight.get(key);
    if (pending !== undefined) return pending.promise;

    // Registered synchronously, so every caller of this tick joins the same upstream call.
    const entry = {} as InFlight;
    const startedAt = this.now();
    this.#count(key);
    const settle = () => {
      if (this.#inFlight.get(key) === entry) {
        this.#inFlight.delete(key);
        return true;
      }
      return false;
    };
    entry.promise = Promise.resolve()
      .then(() => this.client.getIdentification(identificationId))
      .then(
        async (identification) => {
          if (!sameIdentification(identification.id, identificationId)) {
            settle();
            throw new VerifyKitError(
              ERROR_CODES.UPSTREAM_BAD_RESPONSE,
              'the service answered another identification than the one asked for',
            );
          }
          try {
            await this.hooks.onRead?.(identificationId, identification, startedAt);
          } catch {
            // The hook's own failures are its own (it logs them).
          }
          // Only a read nobody invalidated meanwhile may be reused later.
          if (settle()) this.#latest.set(key, { identification, readAt: this.now() });
          return identification;
        },
        (error: unknown) => {
          // The latest answer is a failure: nothing older may stand in for it (fail closed).
          if (settle()) this.#latest.delete(key);
          throw isVerifyKitError(error)
            ? error
            : new VerifyKitError(ERROR_CODES.UPSTREAM_UNAVAILABLE, 'reading the identification failed', {
                cause: error,
              });
        },
      );
    this.#inFlight.set(key, entry);
    return entry.promise;
  }

  #underPressure(identificationId: string): boolean {
    return (this.#pressure.get(identificationId)?.count ?? 0) >= this.hooks.maxReadsPerSecond;
  }

  #count(identificationId: string): void {
    const window = this.#pressure.get(identificationId);
    if (window === undefined) this.#pressure.set(identificationId, { count: 1 });
    else window.count++;
  }

  /** A webhook said this identification changed: forget what we know and what is in flight. */
  invalidate(identificationId: string): void {
    const key = identificationKey(identificationId);
    this.#latest.delete(key);
    this.#inFlight.delete(key);
  }

  clear(): void {
    this.#latest.clear();
    this.#pressure.clear();
    this.#inFlight.clear();
  }
}

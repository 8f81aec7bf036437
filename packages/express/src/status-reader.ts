import {
  ERROR_CODES,
  type Identification,
  isVerifyKitError,
  type VerifyClient,
  VerifyKitError,
} from '@verify-kit/client';
import { BoundedMap } from './lru.js';

export interface ReadOptions {
  /** Reuse a read younger than this (ms). 0: a new upstream read (joined if one is in flight). */
  maxAgeMs?: number;
}

interface InFlight {
  promise: Promise<Identification>;
}

/**
 * Every status read of the kit (gate, /status, long-polls, statusOf) goes through here: concurrent
 * reads of one identification share one upstream call (single-flight), and a recent read may be
 * reused when the caller allows it. A webhook invalidates both, so the next read is new.
 */
export class StatusReader {
  readonly #inFlight = new Map<string, InFlight>();
  readonly #latest: BoundedMap<string, { identification: Identification; readAt: number }>;

  constructor(
    private readonly client: VerifyClient,
    private readonly now: () => number,
  ) {
    this.#latest = new BoundedMap(50_000, 3_600_000, now);
  }

  read(identificationId: string, { maxAgeMs = 0 }: ReadOptions = {}): Promise<Identification> {
    if (maxAgeMs > 0) {
      const latest = this.#latest.get(identificationId);
      if (latest !== undefined && this.now() - latest.readAt < maxAgeMs)
        return Promise.resolve(latest.identification);
    }
    const pending = this.#inFlight.get(identificationId);
    if (pending !== undefined) return pending.promise;

    // Registered synchronously, so every caller of this tick joins the same upstream call.
    const entry = {} as InFlight;
    const settle = () => {
      if (this.#inFlight.get(identificationId) === entry) {
        this.#inFlight.delete(identificationId);
        return true;
      }
      return false;
    };
    entry.promise = Promise.resolve()
      .then(() => this.client.getIdentification(identificationId))
      .then(
        (identification) => {
          if (identification.id.toLowerCase() !== identificationId.toLowerCase()) {
            settle();
            throw new VerifyKitError(
              ERROR_CODES.UPSTREAM_BAD_RESPONSE,
              'the service answered another identification than the one asked for',
            );
          }
          // Only a read nobody invalidated meanwhile may be reused later.
          if (settle()) this.#latest.set(identificationId, { identification, readAt: this.now() });
          return identification;
        },
        (error: unknown) => {
          settle();
          throw isVerifyKitError(error)
            ? error
            : new VerifyKitError(ERROR_CODES.UPSTREAM_UNAVAILABLE, 'reading the identification failed', {
                cause: error,
              });
        },
      );
    this.#inFlight.set(identificationId, entry);
    return entry.promise;
  }

  /** A webhook said this identification changed: forget what we know and what is in flight. */
  invalidate(identificationId: string): void {
    this.#latest.delete(identificationId);
    this.#inFlight.delete(identificationId);
  }

  clear(): void {
    this.#latest.clear();
    this.#inFlight.clear();
  }
}

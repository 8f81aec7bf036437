import {
  ERROR_CODES,
  type Identification,
  isApproved,
  isVerifyKitError,
  type VerifyClient,
  VerifyKitError,
} from '@verify-kit/client/fetch';
import { KIT_READ, type ReadBudget, type ReadCause, tooManyReads } from '../limits/read-budget.js';
import { identificationKey, sameIdentification } from '../shared/identification-key.js';
import { BoundedMap } from '../shared/lru.js';

export interface ReadOptions {
  /** Reuse a read younger than this (ms). 0: a new upstream read (joined if one is in flight). */
  reuseWithinMs?: number;
  /** Who asks (the read budget): a browser's request, or the kit's own work (default). */
  cause?: ReadCause | (() => ReadCause);
  /**
   * A read the budget refuses: 'last' answers the last read of this identification however old (a
   * status to show), 'refusal' only when that read is not APPROVED (the gate: a refusal it knows,
   * never a grant), 'throw' (default) fails: TOO_MANY_STATUS_READS (429), or UPSTREAM_RATE_LIMITED
   * while the service's Retry-After runs.
   */
  whenRefused?: 'last' | 'refusal' | 'throw';
}

interface InFlight {
  promise: Promise<Identification>;
  startedAt: number;
}

/**
 * A read in flight longer than this is not joined (a new one starts): past every attempt's timeout
 * it can only be one its runtime dropped (workerd cancels what a finished request left running),
 * and joining it would hang every later read of that identification.
 */
const IN_FLIGHT_MAX_MS = 60_000;

interface Latest {
  identification: Identification;
  readAt: number;
  /** A webhook said it changed, or a later read failed: never reused as fresh, only shown to a refused poll. */
  outdated?: true;
  /** Known without a read (remember()): never stands for a refusal at the gate. */
  assumed?: true;
  /** The last read failed (the service down): a refused poll is told that, not an older status. */
  failure?: VerifyKitError;
}

/** Answers that named another identification than the one asked for (a mixed-up cache). */
const MISMATCHED = new WeakSet<object>();

/** A 404 or 410: the service no longer has the identification (retention, erasure, a reset). */
export function isGone(error: unknown): boolean {
  return isVerifyKitError(error, ERROR_CODES.UPSTREAM_NOT_FOUND);
}

/**
 * An answer that is not an outage: gone, or about another identification. Nothing stored stands
 * in for it (no stale-if-error); only a gone one also means "no verification" (verify again).
 */
export function isDefinitive(error: unknown): boolean {
  return isGone(error) || (typeof error === 'object' && error !== null && MISMATCHED.has(error));
}

export interface ReaderHooks {
  /** Upstream reads per identification per second; beyond, a read under 1 s old is served. */
  maxReadsPerSecond: number;
  /**
   * Each upstream read that answered (not a reuse), with when it started. The read's callers get
   * their answer once a returned promise settles (the stored decision is written first); a status
   * it returns stands instead of the read's (a refusal holding against a read that lags it).
   */
  onRead?(
    identificationId: string,
    identification: Identification,
    startedAt: number,
  ): string | undefined | Promise<string | undefined>;
  /** The service answered definitively (isDefinitive): what is stored of it may not stand in. */
  onDefinitive?(identificationId: string): void;
  budget?: ReadBudget;
}

const PRESSURE_WINDOW_MS = 1000;

/**
 * Every status read of the kit (gate, /status, long-polls, statusOf) goes through here: concurrent
 * reads of one identification share one upstream call (single-flight), and a recent read may be
 * reused when the caller allows it. A webhook invalidates both, so the next read is new.
 */
export class StatusReader {
  readonly #inFlight = new Map<string, InFlight>();
  readonly #latest: BoundedMap<string, Latest>;
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

  read(
    identificationId: string,
    { reuseWithinMs = 0, cause = KIT_READ, whenRefused = 'throw' }: ReadOptions = {},
  ): Promise<Identification> {
    const key = identificationKey(identificationId);
    // Under pressure (a flood of gated requests for one person) a read under a second old is as
    // good; a webhook's invalidate() outdates it, so a change is never hidden behind it.
    const allowedAge = this.#underPressure(key) ? Math.max(reuseWithinMs, PRESSURE_WINDOW_MS) : reuseWithinMs;
    if (allowedAge > 0) {
      const latest = this.#latest.get(key);
      if (latest !== undefined && !latest.outdated && this.now() - latest.readAt < allowedAge)
        return Promise.resolve(latest.identification);
    }
    const pending = this.#inFlight.get(key);
    if (pending !== undefined && this.now() - pending.startedAt < IN_FLIGHT_MAX_MS) return pending.promise;

    // Registered synchronously, so every caller of this tick joins the same admission and call.
    const entry = { startedAt: this.now() } as InFlight;
    const settle = () => {
      if (this.#inFlight.get(key) === entry) {
        this.#inFlight.delete(key);
        return true;
      }
      return false;
    };
    entry.promise = this.#admit(cause).then((refusal) => {
      if (refusal === undefined) return this.#upstream(identificationId, key, settle);
      settle();
      const last = this.#latest.get(key);
      if (last?.failure !== undefined && whenRefused === 'last') throw last.failure;
      if (last !== undefined && whenRefused === 'last') return last.identification;
      const refused = last !== undefined && !last.assumed && !isApproved(last.identification.status);
      if (refused && whenRefused === 'refusal') return last.identification;
      throw refusal;
    });
    this.#inFlight.set(key, entry);
    return entry.promise;
  }

  /** undefined when the read may go upstream; else the error a refused read fails with. */
  /** `cause` is worked out only here: a read answered from the cache or joined costs nothing of it. */
  async #admit(cause: ReadCause | (() => ReadCause)): Promise<VerifyKitError | undefined> {
    const admission = await this.hooks.budget?.admit(typeof cause === 'function' ? cause() : cause);
    if (admission === undefined || admission.admitted) return undefined;
    if (!admission.paused) return tooManyReads(admission.retryAfterMs);
    return new VerifyKitError(
      ERROR_CODES.UPSTREAM_RATE_LIMITED,
      'the service asked to wait before more reads (Retry-After)',
      { retryAfterMs: admission.retryAfterMs },
    );
  }

  async #upstream(identificationId: string, key: string, settle: () => boolean): Promise<Identification> {
    const startedAt = this.now();
    this.#count(key);
    let identification: Identification;
    try {
      identification = await this.client.getIdentification(identificationId);
      if (!sameIdentification(identification.id, identificationId)) {
        const error = new VerifyKitError(
          ERROR_CODES.UPSTREAM_BAD_RESPONSE,
          'the service answered another identification than the one asked for',
        );
        MISMATCHED.add(error);
        throw error;
      }
    } catch (cause: unknown) {
      // The latest answer is a failure: nothing older may stand in for it as fresh (fail closed).
      // A poll the budget refuses is told the failure, not an older status (a verified screen while
      // the gate refuses); a 429 is no outage, so during its pause the last read is still shown.
      const error = isVerifyKitError(cause)
        ? cause
        : new VerifyKitError(ERROR_CODES.UPSTREAM_UNAVAILABLE, 'reading the identification failed', {
            cause,
          });
      const rateLimited = isVerifyKitError(error, ERROR_CODES.UPSTREAM_RATE_LIMITED);
      if (settle()) this.#outdate(key, rateLimited ? undefined : error);
      if (rateLimited) this.hooks.budget?.pause(error.retryAfterMs);
      if (isDefinitive(error)) this.hooks.onDefinitive?.(identificationId);
      throw error;
    }
    let standing: string | undefined;
    try {
      standing = (await this.hooks.onRead?.(identificationId, identification, startedAt)) ?? undefined;
    } catch {
      // The hook's own failures are its own (it logs them).
    }
    if (standing !== undefined && standing !== identification.status) {
      identification = { ...identification, status: standing };
    }
    // Only a read nobody invalidated meanwhile may be reused later.
    if (settle()) this.#latest.set(key, { identification, readAt: this.now() });
    return identification;
  }

  /**
   * The read of this identification in flight, if any: whoever must keep it alive (a webhook's work
   * under the runtime's waitUntil, whose hint started it) waits for it.
   */
  inFlight(identificationId: string): Promise<Identification> | undefined {
    return this.#inFlight.get(identificationKey(identificationId))?.promise;
  }

  #underPressure(identificationId: string): boolean {
    return (this.#pressure.get(identificationId)?.count ?? 0) >= this.hooks.maxReadsPerSecond;
  }

  #count(identificationId: string): void {
    const window = this.#pressure.get(identificationId);
    if (window === undefined) this.#pressure.set(identificationId, { count: 1 });
    else window.count++;
  }

  /** What a new identification is (decision 1), known without a read: a refused poll answers it. */
  remember(identification: Identification): void {
    this.#latest.set(identificationKey(identification.id), {
      identification,
      readAt: this.now(),
      outdated: true,
      assumed: true,
    });
  }

  /** A webhook said this identification changed: forget what we know and what is in flight. */
  invalidate(identificationId: string): void {
    const key = identificationKey(identificationId);
    this.#outdate(key);
    this.#inFlight.delete(key);
  }

  #outdate(key: string, failure?: VerifyKitError): void {
    const latest = this.#latest.get(key);
    if (latest === undefined || (latest.outdated && failure === undefined)) return;
    this.#latest.set(key, { ...latest, outdated: true, failure });
  }

  clear(): void {
    this.#latest.clear();
    this.#pressure.clear();
    this.#inFlight.clear();
  }
}

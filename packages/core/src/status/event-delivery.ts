import type { Phase } from '@verify-kit/protocol';
import type { StatusRecord } from '../bindings/binding-store.js';
import type { Bindings } from '../bindings/bindings.js';
import { identificationKey } from '../shared/identification-key.js';
import type { Log } from '../shared/log.js';
import { BoundedMap } from '../shared/lru.js';

/**
 * A status transition, written into the identification's status record by the compare-and-set that
 * decided it, and kept there until a later transition finds it told: whichever instance reads the
 * record can tell it, with the same id and payload.
 */
export interface PendingEvent {
  /** Decided once, at the transition: every delivery of this event carries it. */
  id: string;
  status: string;
  previousStatus: string;
  phase: Phase;
  /** Epoch ms: when the upstream read that saw the change started. */
  at: number;
}

/** A status record with the transitions not yet known told (a field every shipped store keeps: JSON). */
export type EventfulRecord = StatusRecord & { events?: PendingEvent[] };

/** What the handler is given for one event (status-events.ts's StatusChangeEvent). */
export interface TellableEvent {
  id: string;
  accountId?: string;
  identificationId: string;
  verificationSessionId: string;
  status: string;
  previousStatus?: string;
  phase: Phase;
  at: string;
}

/**
 * How long a claim to tell an event holds without renewal: an instance that dies while telling (kill
 * -9, a crash) leaves its claim, and another instance takes the event over once it runs out. A live
 * instance renews its claim every third of it while the handler runs.
 */
export const DELIVERY_LEASE_MS = 8000;
/** An event no instance managed to tell within this is dropped (logged); its claim is kept longer. */
export const DELIVERY_HORIZON_MS = 24 * 3_600_000;

const RENEW_MS = Math.floor(DELIVERY_LEASE_MS / 3);
const TOLD = 'told';
const leaseOf = (until: number, token: string) => `lease ${until} ${token}`;
const leaseEnd = (status: string) => Number(/^lease (\d+) /.exec(status)?.[1] ?? Number.NaN);

/** The key of the event's claim: a status record of its own beside the identification's. */
export const claimKey = (key: string, eventId: string) => `${key}#${eventId}`;

export type Outcome = 'told' | 'held elsewhere';

/** Resolves after `ms`, on a timer that never keeps the process alive. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    (timer as { unref?: () => unknown }).unref?.();
  });
}

/**
 * Tells each event once across the instances sharing the store: a claim (a status record under a key
 * of its own) taken by a compare-and-set, so exactly one instance calls the handler; renewed while the
 * handler runs; marked told once it returned. A claim whose holder died runs out and is taken over by
 * the next instance that reads the identification: then the handler is called again with the same id
 * (the product's own work may have been done: it dedupes by `event.id`).
 */
export class EventDelivery {
  // Events this process knows told (by itself or another instance): no store call for them again.
  readonly #told = new BoundedMap<string, true>(100_000, DELIVERY_HORIZON_MS);
  // The claims this process holds, by event id: a retry after a store failure goes on with its own.
  readonly #mine = new BoundedMap<string, string>(10_000, DELIVERY_HORIZON_MS);
  // A look at the identification again once another instance's claim has run out, by event id.
  readonly #rechecks = new Map<string, ReturnType<typeof setTimeout>>();
  readonly #running = new Set<Promise<unknown>>();
  #closed = false;

  constructor(
    private readonly bindings: Bindings,
    private readonly handler: (event: TellableEvent) => void | Promise<void>,
    private readonly log: Log,
    /** Reads the identification's record again and tells what it holds (a claim ran out). */
    private readonly recheck: (identificationId: string) => void,
  ) {}

  isTold(eventId: string): boolean {
    return this.#told.has(eventId);
  }

  /**
   * Tells `event` of the record under `key` unless it is told: 'told' once it is (by anyone, or
   * dropped), 'held elsewhere' while another instance's claim runs (looked at again when it runs out).
   * A store failure rejects before the handler ran; after it, the claim's end is retried here.
   */
  async deliver(id: string, record: EventfulRecord, event: PendingEvent): Promise<Outcome> {
    if (this.#told.has(event.id)) return 'told';
    const key = identificationKey(id);
    if (Date.now() - event.at > DELIVERY_HORIZON_MS) {
      this.log.warn('onStatusChange: a change nobody could tell within a day is dropped', {
        identificationId: id,
        status: event.status,
      });
      this.#told.set(event.id, true);
      return 'told';
    }
    const { store } = this.bindings;
    const claimAt = claimKey(key, event.id);
    const claim = await this.bindings.stored(() => store.statusRecords.get(claimAt));
    if (claim?.status === TOLD) {
      this.#told.set(event.id, true);
      return 'told';
    }
    const until = claim === undefined ? Number.NaN : leaseEnd(claim.status);
    let claimed = this.#mine.get(event.id);
    const ours = claimed !== undefined && claim?.status === claimed;
    if (claim !== undefined && !ours && until > Date.now()) return this.#heldElsewhere(id, event.id, until);
    // Not claimed, run out, or ours with too little left: a claim of its own for a whole lease.
    if (claimed === undefined || !ours || until < Date.now() + RENEW_MS) {
      const lease = leaseOf(Date.now() + DELIVERY_LEASE_MS, crypto.randomUUID());
      // Known as ours before the write: a write whose answer is lost (the store failing) is ours on retry.
      this.#mine.set(event.id, lease);
      const next = claimRecord(record, event, lease);
      if (
        !(await this.bindings.stored(() => store.statusRecords.compareAndSet(claimAt, claim?.status, next)))
      ) {
        this.#mine.delete(event.id);
        return this.#heldElsewhere(id, event.id, Date.now() + DELIVERY_LEASE_MS);
      }
      claimed = lease;
    }
    if (await this.#stillBound(key, record)) {
      const telling = this.#tell(claimAt, id, record, event, claimed);
      this.#running.add(telling);
      await telling.finally(() => this.#running.delete(telling));
    } else {
      await this.#end(claimAt, id, record, event, claimed);
    }
    return 'told';
  }

  /** Stops the looks scheduled; waits up to `ms` for the handlers running to return and be marked told. */
  async close(ms: number): Promise<void> {
    this.#closed = true;
    for (const timer of this.#rechecks.values()) clearTimeout(timer);
    this.#rechecks.clear();
    if (this.#running.size === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    });
    await Promise.race([Promise.allSettled([...this.#running]), waited]);
    clearTimeout(timer);
  }

  get closed(): boolean {
    return this.#closed;
  }

  #heldElsewhere(id: string, eventId: string, until: number): Outcome {
    if (!this.#closed && !this.#rechecks.has(eventId) && this.#rechecks.size < 10_000) {
      // A little after its end, so that the holder's own last renewal or mark has landed.
      const timer = setTimeout(
        () => {
          this.#rechecks.delete(eventId);
          if (!this.#closed) this.recheck(id);
        },
        Math.max(0, until - Date.now()) + 100 + Math.floor(Math.random() * 400),
      );
      (timer as { unref?: () => unknown }).unref?.();
      this.#rechecks.set(eventId, timer);
    }
    return 'held elsewhere';
  }

  /** The handler, the claim renewed while it runs, then the claim marked told. */
  async #tell(
    claimAt: string,
    id: string,
    record: EventfulRecord,
    event: PendingEvent,
    lease: string,
  ): Promise<void> {
    const { store } = this.bindings;
    let held = lease;
    let renewing: Promise<unknown> = Promise.resolve();
    const renew = setInterval(() => {
      renewing = renewing.then(async () => {
        const next = leaseOf(Date.now() + DELIVERY_LEASE_MS, crypto.randomUUID());
        try {
          const renewal = claimRecord(record, event, next);
          if (await this.bindings.stored(() => store.statusRecords.compareAndSet(claimAt, held, renewal)))
            held = next;
        } catch {
          // The store is away: the claim holds until its end; the next renewal tries again.
        }
      });
    }, RENEW_MS);
    (renew as { unref?: () => unknown }).unref?.();
    try {
      await this.handler(tellable(id, record, event));
    } catch (error) {
      // Its own failure: told all the same (a handler that throws is not called again).
      this.log.error('onStatusChange threw', {
        identificationId: id,
        status: event.status,
        error: error instanceof Error ? error.name : typeof error,
      });
    } finally {
      clearInterval(renew);
    }
    await renewing;
    await this.#end(claimAt, id, record, event, held);
  }

  /** Marks the claim told, riding out a store failure; never throws. */
  async #end(claimAt: string, id: string, record: StatusRecord, event: PendingEvent, lease: string) {
    this.#told.set(event.id, true);
    this.#mine.delete(event.id);
    const { store } = this.bindings;
    const told = claimRecord(record, event, TOLD);
    for (let attempt = 0; ; attempt++) {
      try {
        if (!(await this.bindings.stored(() => store.statusRecords.compareAndSet(claimAt, lease, told)))) {
          this.log.warn('onStatusChange: told after its claim ran out; another instance may tell it again', {
            identificationId: id,
            eventId: event.id,
          });
        }
        return;
      } catch {
        if (this.#closed || attempt >= RETRIES) {
          this.log.warn(
            'onStatusChange: told, but the store could not record it; another instance may tell it again',
            {
              identificationId: id,
              eventId: event.id,
            },
          );
          return;
        }
        await pause(retryDelay(attempt));
      }
    }
  }

  /**
   * An account's record tells only while the account is still bound to this identification: one
   * replaced (a restart) or forgotten, by this version's bind() or an older instance's, loses its
   * record here and tells nothing.
   */
  async #stillBound(key: string, record: StatusRecord): Promise<boolean> {
    const { accountId } = record;
    if (accountId === undefined) return true;
    const { store } = this.bindings;
    const bound = await this.bindings.stored(() => store.bindings.get(accountId));
    if (bound !== undefined && identificationKey(bound.identificationId) === key) return true;
    await this.bindings.stored(() => store.statusRecords.delete(key));
    this.log.debug('onStatusChange: an identification no longer bound to its account tells nothing', {
      identificationId: key,
    });
    return false;
  }
}

/** Tries of a store call before a caller gives up (logged); about two minutes with retryDelay. */
export const RETRIES = 36;

/** The wait before try `attempt + 1` after a store failure: 250 ms doubling to 4 s, jittered. */
export function retryDelay(attempt: number): number {
  return Math.min(250 * 2 ** attempt, 4000) * (0.75 + Math.random() / 2);
}

/** The claim of `event`: kept at least as long as the event may still be told (retention.ts). */
function claimRecord(record: StatusRecord, event: PendingEvent, status: string): StatusRecord {
  return {
    status,
    observedAt: Date.now(),
    verificationSessionId: record.verificationSessionId,
    expiresAt: new Date(event.at + DELIVERY_HORIZON_MS).toISOString(),
  };
}

function tellable(id: string, record: StatusRecord, event: PendingEvent): TellableEvent {
  return {
    id: event.id,
    ...(record.accountId === undefined ? {} : { accountId: record.accountId }),
    identificationId: id,
    verificationSessionId: record.verificationSessionId,
    status: event.status,
    previousStatus: event.previousStatus,
    phase: event.phase,
    at: new Date(event.at).toISOString(),
  };
}

import type { Identification } from '@verify-kit/client/fetch';
import type { Phase } from '@verify-kit/protocol';
import type { VerificationBinding } from '../bindings/binding.js';
import type { StatusRecord } from '../bindings/binding-store.js';
import type { Bindings, Owner } from '../bindings/bindings.js';
import { identificationKey } from '../shared/identification-key.js';
import type { Log } from '../shared/log.js';
import { BoundedMap } from '../shared/lru.js';
import {
  DELIVERY_HORIZON_MS,
  EventDelivery,
  type EventfulRecord,
  type PendingEvent,
  pause,
  RETRIES,
  retryDelay,
} from './event-delivery.js';

/**
 * One status transition of an identification, told once across the instances sharing the store: a
 * second delivery happens only when the instance telling it died, or lost the store longer than a
 * claim lasts, before the told mark was stored; it carries the same `id`.
 */
export interface StatusChangeEvent {
  /** The transition's id, the same on every delivery of it: dedupe by it. */
  id: string;
  /** The account it is bound to; absent for an anonymous visitor's verification. */
  accountId?: string;
  identificationId: string;
  verificationSessionId: string;
  status: string;
  previousStatus?: string;
  phase: Phase;
  /** ISO 8601: when the upstream read that saw it started. */
  at: string;
}

export type StatusChangeHandler = (event: StatusChangeEvent) => void | Promise<void>;

/** How a status reads for people, given the record (core.describe without a binding). */
export type PhaseOfRecord = (record: StatusRecord, identification: Identification) => Phase;

interface Read {
  identification: Identification;
  readStartedAt: number;
}

/** An identification whose record is being looked at: the newest read to compare it with. */
interface Work {
  id: string;
  /** undefined: tell what the record holds (another instance's claim ran out). */
  read: Read | undefined;
  /** A newer read arrived while it was looked at: once more. */
  again: boolean;
  /** Settles when the look ends: the events the record holds told, or left to a claim elsewhere. */
  done?: Promise<void>;
}

/** Events kept in a record that later transitions carry while nobody is known to have told them. */
const CARRIED = 7;

/**
 * onStatusChange from server truth: every fresh upstream read is compared with the last status
 * the store holds, and a compare-and-set decides which read (of which instance) records the change.
 * The change is written into the record as an event, told through a claim of its own
 * (event-delivery.ts): any instance that reads the identification later tells what a dead or cut-off
 * one could not. Store failures are retried here with backoff. Identifications this kit did not
 * create have no record and tell nothing; nothing a browser sends reaches here but through an
 * upstream read.
 */
export class StatusEvents {
  // What this process knows told up to: a read that changes nothing costs no store call.
  readonly #known = new BoundedMap<string, string>(100_000, 3_600_000);
  readonly #work = new Map<string, Work>();
  readonly #delivery: EventDelivery | undefined;

  constructor(
    private readonly bindings: Bindings,
    handler: StatusChangeHandler | undefined,
    private readonly phaseOf: PhaseOfRecord,
    private readonly log: Log,
  ) {
    this.#delivery =
      handler === undefined
        ? undefined
        : new EventDelivery(bindings, handler, log, (id) => this.#enqueue(id, undefined));
  }

  get enabled(): boolean {
    return this.#delivery !== undefined;
  }

  /** A new verification: its first status, with no event (nothing changed yet). */
  async created(owner: Owner, binding: VerificationBinding, status: string, at: number): Promise<void> {
    if (!this.enabled) return;
    const record: StatusRecord = {
      status,
      observedAt: at,
      verificationSessionId: binding.verificationSessionId,
      expiresAt: binding.expiresAt,
      identificationId: binding.identificationId,
      ...(owner.accountId === undefined ? {} : { accountId: owner.accountId }),
    };
    const { store } = this.bindings;
    const key = identificationKey(binding.identificationId);
    await this.bindings.stored(() => store.statusRecords.compareAndSet(key, undefined, record));
    this.#known.set(key, status);
  }

  /**
   * The id to read when the store tracks this identification (a webhook for it is worth one read):
   * as the service spelled it at creation, whatever case the webhook used. undefined: not tracked.
   */
  async tracked(identificationId: string): Promise<string | undefined> {
    if (!this.enabled) return undefined;
    const { store } = this.bindings;
    const key = identificationKey(identificationId);
    const record = await this.bindings.stored(() => store.statusRecords.get(key));
    if (record === undefined) return undefined;
    const spelled = record.identificationId;
    return typeof spelled === 'string' && identificationKey(spelled) === key ? spelled : identificationId;
  }

  /** Called by the reader after each upstream read; never throws, never delays the read's callers. */
  observe(identificationId: string, identification: Identification, readStartedAt: number): void {
    if (!this.enabled || this.#known.get(identificationKey(identificationId)) === identification.status)
      return;
    this.#enqueue(identificationId, { identification, readStartedAt });
  }

  /**
   * Settles once the look at this identification under way (if any) has ended: its change recorded
   * and its events told, or left to the instance whose claim holds them. Never rejects.
   */
  settled(identificationId: string): Promise<void> {
    return this.#work.get(identificationKey(identificationId))?.done ?? Promise.resolve();
  }

  /** Tells what the identification's record holds and nobody is known to have told. */
  tellPending(identificationId: string): void {
    if (this.enabled) this.#enqueue(identificationId, undefined);
  }

  /** The kit closes: no more looks; waits up to `ms` for the handlers running to return. */
  async close(ms = 2000): Promise<void> {
    await this.#delivery?.close(ms);
  }

  #enqueue(id: string, read: Read | undefined): void {
    const key = identificationKey(id);
    const work = this.#work.get(key);
    if (work !== undefined) {
      if (read !== undefined && read.readStartedAt >= (work.read?.readStartedAt ?? Number.NEGATIVE_INFINITY))
        work.read = read;
      work.again = true;
      return;
    }
    const started: Work = { id, read, again: false };
    this.#work.set(key, started);
    started.done = this.#run(key, started);
  }

  /** Looks at the record until nothing newer came meanwhile; a store failure is tried again, with backoff. */
  async #run(key: string, work: Work): Promise<void> {
    for (let attempt = 0; !this.#delivery?.closed; ) {
      work.again = false;
      try {
        await this.#step(work.id, work.read);
        if (!work.again) break;
        attempt = 0;
      } catch (error) {
        const meta = {
          identificationId: work.id,
          error: error instanceof Error ? error.message : String(error),
        };
        if (attempt >= RETRIES) {
          this.log.warn('onStatusChange: the change could not be recorded; the next read tries again', meta);
          break;
        }
        if (attempt === 0)
          this.log.warn('onStatusChange: the store failed while telling a change; trying again', meta);
        await pause(retryDelay(attempt++));
      }
    }
    if (this.#work.get(key) === work) this.#work.delete(key);
  }

  /** Records the read's status if it is a change, then tells every event the record holds. */
  async #step(id: string, read: Read | undefined): Promise<void> {
    const delivery = this.#delivery;
    if (delivery === undefined) return;
    const { store } = this.bindings;
    const key = identificationKey(id);
    let record: EventfulRecord | undefined = await this.bindings.stored(() => store.statusRecords.get(key));
    if (record === undefined) return;
    const status = read?.identification.status;
    // A read older than the one recorded (a slow instance) never rolls the status back.
    if (read !== undefined && record.status !== status && record.observedAt <= read.readStartedAt) {
      const next = this.#transition(record, read, delivery);
      const expected = record.status;
      if (await this.bindings.stored(() => store.statusRecords.compareAndSet(key, expected, next)))
        record = next;
      else record = await this.bindings.stored(() => store.statusRecords.get(key));
      if (record === undefined) return;
    }
    let told = true;
    for (const event of record.events ?? []) {
      if ((await delivery.deliver(id, record, event)) !== 'told') told = false;
    }
    if (told && record.status === status) this.#known.set(key, status);
  }

  /** The record after the change `read` saw: its event added to those not known told. */
  #transition(record: EventfulRecord, read: Read, delivery: EventDelivery): EventfulRecord {
    const { identification, readStartedAt } = read;
    const carried = (record.events ?? []).filter(
      (event) => !delivery.isTold(event.id) && Date.now() - event.at <= DELIVERY_HORIZON_MS,
    );
    const next: EventfulRecord = { ...record, status: identification.status, observedAt: readStartedAt };
    const event: PendingEvent = {
      id: crypto.randomUUID(),
      status: identification.status,
      previousStatus: record.status,
      phase: this.phaseOf(next, identification),
      at: readStartedAt,
    };
    return { ...next, events: [...carried.slice(-CARRIED), event] };
  }
}

import type { Identification } from '@verify-kit/client/fetch';
import type { Phase } from '@verify-kit/protocol';
import type { VerificationBinding } from '../bindings/binding.js';
import type { StatusRecord } from '../bindings/binding-store.js';
import type { Bindings, Owner } from '../bindings/bindings.js';
import { identificationKey } from '../shared/identification-key.js';
import type { Log } from '../shared/log.js';
import { BoundedMap } from '../shared/lru.js';

/** One status transition of an identification, told once (across instances sharing the store). */
export interface StatusChangeEvent {
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

/**
 * onStatusChange from server truth: every fresh upstream read is compared with the last status
 * the store holds, and a compare-and-set decides which read (of which instance) tells the change.
 * Identifications this kit did not create have no record and tell nothing; nothing a browser sends
 * reaches here but through an upstream read.
 */
export class StatusEvents {
  // What this process last saw: a read that changes nothing costs no store call.
  readonly #known = new BoundedMap<string, string>(100_000, 3_600_000);

  constructor(
    private readonly bindings: Bindings,
    private readonly handler: StatusChangeHandler | undefined,
    private readonly phaseOf: PhaseOfRecord,
    private readonly log: Log,
  ) {}

  get enabled(): boolean {
    return this.handler !== undefined;
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
    this.#compareAndTell(identificationId, identification, readStartedAt).catch((error: unknown) => {
      this.log.warn('onStatusChange: the change could not be recorded; the next read tries again', {
        identificationId,
        error: error instanceof Error ? error.message : String(error),
      });
    });
  }

  async #compareAndTell(id: string, identification: Identification, readStartedAt: number): Promise<void> {
    const { store } = this.bindings;
    const key = identificationKey(id);
    const record = await this.bindings.stored(() => store.statusRecords.get(key));
    if (record === undefined) return;
    const { status } = identification;
    // A read older than the one recorded (a slow instance) never rolls the status back.
    if (record.status === status || record.observedAt > readStartedAt) {
      if (record.status === status) this.#known.set(key, status);
      return;
    }
    const next: StatusRecord = { ...record, status, observedAt: readStartedAt };
    if (!(await this.bindings.stored(() => store.statusRecords.compareAndSet(key, record.status, next))))
      return;
    this.#known.set(key, status);
    if (!(await this.#stillBound(key, record))) return;
    const event: StatusChangeEvent = {
      ...(record.accountId === undefined ? {} : { accountId: record.accountId }),
      identificationId: id,
      verificationSessionId: record.verificationSessionId,
      status,
      previousStatus: record.status,
      phase: this.phaseOf(next, identification),
      at: new Date(readStartedAt).toISOString(),
    };
    try {
      await this.handler?.(event);
    } catch (error) {
      this.log.error('onStatusChange threw', { identificationId: id, status, error: errorName(error) });
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

/** The error's class only: its message may carry personal data the handler had at hand. */
function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}

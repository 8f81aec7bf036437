import type { Identification } from '@verify-kit/client/fetch';
import { isFinalPhase, type Phase } from '@verify-kit/protocol';
import { KIT_READ, type ReadCause } from '../limits/read-budget.js';
import { identificationKey } from '../shared/identification-key.js';
import type { StatusReader } from './status-reader.js';

export interface Watcher {
  /**
   * Each new read (`woken`: started by a webhook's hint, or by the interval); the watcher removes
   * itself when it has answered.
   */
  onRead(identification: Identification, woken: 'webhook' | 'poll'): void;
  onError(error: unknown): void;
}

interface Watch {
  /** As the first watcher's binding spells it: what the re-reads ask the service for. */
  identificationId: string;
  watchers: Set<Watcher>;
  timer: ReturnType<typeof setTimeout> | undefined;
  reading: boolean;
  /** A webhook arrived during a read: read again as soon as it ends. */
  dirty: boolean;
  /** Whose reads the scheduled re-reads are (the first watcher's request: the read budget). */
  cause: ReadCause;
  /** The verification is pending (a long-poll waits for its next phase): re-read every PENDING_INTERVAL_MS. */
  pending: boolean;
  /** The last answer of a re-read: the same one again means the budget answered it, not the service. */
  last: Identification | undefined;
  /** The last re-read was not a new upstream read (the read budget refused it): back to pollIntervalMs. */
  refused: boolean;
}

/**
 * How often a pending verification is re-read while a long-poll waits on it (at most: never more
 * often than pollIntervalMs says): a lost webhook then costs the person at most this, not
 * pollIntervalMs, whichever webhooks were lost (the submission's too: the decision may then come
 * while the kit still shows the QR). Within the read budget (5 reads per client in 5 s by default:
 * 4 of them), and a re-read the budget refuses slows the identification back to pollIntervalMs.
 */
export const PENDING_INTERVAL_MS = 1250;

/**
 * The long-polls' view of the upstream: one re-read per identification every interval however many
 * tabs wait on it (PENDING_INTERVAL_MS while the verification is pending), and one
 * re-read at once when a webhook hint arrives. Nothing is scheduled for an identification nobody
 * waits on.
 */
export class StatusWatch {
  readonly #watches = new Map<string, Watch>();

  constructor(
    private readonly reader: StatusReader,
    private readonly pollIntervalMs: number,
  ) {}

  /**
   * `phase`: the phase the watcher waits to see change (the newest watcher's sets the cadence).
   * Returns the function that stops watching (idempotent).
   */
  add(identificationId: string, watcher: Watcher, cause: ReadCause = KIT_READ, phase?: Phase): () => void {
    let watch = this.#watches.get(identificationKey(identificationId));
    const pending = phase !== undefined && !isFinalPhase(phase);
    if (watch === undefined) {
      watch = {
        identificationId,
        watchers: new Set(),
        timer: undefined,
        reading: false,
        dirty: false,
        cause,
        pending,
        last: undefined,
        refused: false,
      };
      this.#watches.set(identificationKey(identificationId), watch);
      this.#schedule(identificationId, watch);
    } else if (pending !== watch.pending) {
      watch.pending = pending;
      if (watch.timer !== undefined) this.#schedule(identificationId, watch);
    }
    watch.watchers.add(watcher);
    const current = watch;
    return () => {
      current.watchers.delete(watcher);
      if (current.watchers.size === 0) this.#drop(identificationId, current);
    };
  }

  /** A verified webhook for this identification: re-read now if anybody waits. */
  poke(identificationId: string): void {
    const watch = this.#watches.get(identificationKey(identificationId));
    if (watch === undefined) return;
    if (watch.reading) {
      watch.dirty = true;
      return;
    }
    clearTimeout(watch.timer);
    this.#read(watch.identificationId, watch, KIT_READ, 'webhook');
  }

  get size(): number {
    return this.#watches.size;
  }

  close(): void {
    for (const [id, watch] of this.#watches) this.#drop(id, watch);
  }

  #drop(identificationId: string, watch: Watch): void {
    clearTimeout(watch.timer);
    watch.timer = undefined;
    const key = identificationKey(identificationId);
    if (this.#watches.get(key) === watch) this.#watches.delete(key);
  }

  #schedule(identificationId: string, watch: Watch): void {
    clearTimeout(watch.timer);
    const interval =
      watch.pending && !watch.refused
        ? Math.min(this.pollIntervalMs, PENDING_INTERVAL_MS)
        : this.pollIntervalMs;
    watch.timer = setTimeout(() => this.#read(identificationId, watch, watch.cause, 'poll'), interval);
  }

  /** A webhook's re-read is the kit's; a scheduled one counts against the watcher's read budget. */
  #read(identificationId: string, watch: Watch, cause: ReadCause, woken: 'webhook' | 'poll'): void {
    watch.timer = undefined;
    watch.reading = true;
    watch.dirty = false;
    const deliver = (notify: (watcher: Watcher) => void) => {
      watch.reading = false;
      for (const watcher of [...watch.watchers]) {
        try {
          notify(watcher);
        } catch {
          // One watcher's failure must not starve the others.
        }
      }
      if (this.#watches.get(identificationKey(identificationId)) !== watch) return;
      if (watch.dirty) this.#read(identificationId, watch, KIT_READ, 'webhook');
      else this.#schedule(identificationId, watch);
    };
    this.reader.read(identificationId, { cause, whenRefused: 'last' }).then(
      (identification) => {
        watch.refused = identification === watch.last;
        watch.last = identification;
        deliver((watcher) => watcher.onRead(identification, woken));
      },
      (error: unknown) => deliver((watcher) => watcher.onError(error)),
    );
  }
}

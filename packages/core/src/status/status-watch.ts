import type { Identification } from '@verify-kit/client/fetch';
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
}

/**
 * The long-polls' view of the upstream: one re-read per identification every interval however many
 * tabs wait on it, and one re-read at once when a webhook hint arrives. Nothing is scheduled for an
 * identification nobody waits on.
 */
export class StatusWatch {
  readonly #watches = new Map<string, Watch>();

  constructor(
    private readonly reader: StatusReader,
    private readonly pollIntervalMs: number,
  ) {}

  /** Returns the function that stops watching (idempotent). */
  add(identificationId: string, watcher: Watcher, cause: ReadCause = KIT_READ): () => void {
    let watch = this.#watches.get(identificationKey(identificationId));
    if (watch === undefined) {
      watch = {
        identificationId,
        watchers: new Set(),
        timer: undefined,
        reading: false,
        dirty: false,
        cause,
      };
      this.#watches.set(identificationKey(identificationId), watch);
      this.#schedule(identificationId, watch);
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
    watch.timer = setTimeout(
      () => this.#read(identificationId, watch, watch.cause, 'poll'),
      this.pollIntervalMs,
    );
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
      (identification) => deliver((watcher) => watcher.onRead(identification, woken)),
      (error: unknown) => deliver((watcher) => watcher.onError(error)),
    );
  }
}

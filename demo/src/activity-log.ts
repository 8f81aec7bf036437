/*
 * What the playground shows beside a verification: the webhooks the demo received for an
 * identification (with the signature check), the status reads the kit made upstream, and the
 * gate's answers. In memory, bounded, keyed by identification id.
 */

export interface WebhookEntry {
  kind: 'webhook';
  at: string;
  /** e.g. identification.approved; absent when the body could not be read. */
  type?: string;
  status?: string;
  /** The demo's own check of the Standard Webhooks signature with the shared secret. */
  signature: 'valid' | 'invalid' | 'not_checked';
  signatureProblem?: string;
  /** What the kit's webhook receiver answered (204 accepted, 400/401 refused). */
  kitAnswer: number;
}

export interface StatusCallEntry {
  kind: 'status_call';
  at: string;
  method: string;
  /** The upstream path, e.g. /api/v1/identifications/<id>; never headers. */
  path: string;
  /** HTTP status answered, or the network error's code. */
  outcome: number | string;
}

export interface GateEntry {
  kind: 'gate';
  at: string;
  path: string;
  /** 200 passed, 303 redirected to /verify, 403 refused, 503 upstream failure. */
  answer: number;
}

export type ActivityEntry = WebhookEntry | StatusCallEntry | GateEntry;

const MAX_ENTRIES_PER_IDENTIFICATION = 100;
const MAX_IDENTIFICATIONS = 2_000;

export class ActivityLog {
  readonly #entries = new Map<string, ActivityEntry[]>();

  add(identificationId: string, entry: ActivityEntry): void {
    let list = this.#entries.get(identificationId);
    if (list === undefined) {
      if (this.#entries.size >= MAX_IDENTIFICATIONS) {
        const oldest = this.#entries.keys().next().value;
        if (oldest !== undefined) this.#entries.delete(oldest);
      }
      list = [];
      this.#entries.set(identificationId, list);
    }
    list.push(entry);
    if (list.length > MAX_ENTRIES_PER_IDENTIFICATION) list.shift();
  }

  of(identificationId: string): readonly ActivityEntry[] {
    return this.#entries.get(identificationId) ?? [];
  }
}

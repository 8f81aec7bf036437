import type { AuditEvent, StatusChangeEvent } from '@verify-kit/express';
import { type GateSource, noteGateSource } from './gate-source.js';
/*
 * What the playground shows beside a verification: the webhooks the kit accepted for an
 * identification, the status changes it told, the status reads it made upstream, and the gate's
 * answers (each from a read or from the visit's stored decision). In memory, bounded, keyed by
 * identification id. Only what the kit accepted is recorded (its onAudit and onStatusChange
 * hooks): a flood of unsigned posts cannot wipe the log.
 */

export interface WebhookEntry {
  kind: 'webhook';
  at: string;
  /** e.g. identification.approved: a webhook the kit verified (signature, replay) and accepted. */
  type?: string;
}

export interface StatusChangeEntry {
  kind: 'status_change';
  at: string;
  status: string;
  previousStatus?: string;
  phase: string;
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
  /** `read`: the gate read the status from the service; `stored`: the visit's stored decision answered. */
  source?: GateSource;
}

export type ActivityEntry = WebhookEntry | StatusChangeEntry | StatusCallEntry | GateEntry;

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

/** The kit's hooks that feed the log: only webhooks it accepted and status changes it told. */
export function recordAcceptedActivity(log: ActivityLog): {
  onAudit: (event: AuditEvent) => void;
  onStatusChange: (event: StatusChangeEvent) => void;
} {
  return {
    onAudit: (event) => {
      noteGateSource(event);
      if (event.type !== 'webhook.accepted' || event.identificationId === undefined) return;
      log.add(event.identificationId, {
        kind: 'webhook',
        at: event.at,
        ...(typeof event.detail === 'string' ? { type: event.detail } : {}),
      });
    },
    onStatusChange: (event) => {
      log.add(event.identificationId, {
        kind: 'status_change',
        at: event.at,
        status: event.status,
        ...(event.previousStatus === undefined ? {} : { previousStatus: event.previousStatus }),
        phase: event.phase,
      });
    },
  };
}

import type { Log } from './log.js';

/** What a compliance log (KVKK/GDPR accountability) wants to know; ids only, no personal data. */
export interface AuditEvent {
  type:
    | 'session.created'
    | 'gate.granted'
    | 'gate.denied'
    | 'webhook.accepted'
    | 'binding.forgotten'
    | 'send-link.budget-spent';
  /** ISO 8601. */
  at: string;
  accountId?: string;
  identificationId?: string;
  /**
   * gate.denied: the phase that was refused (null: no verification); webhook.accepted: the event
   * type; send-link.budget-spent: the seconds until the hourly budget has room again.
   */
  detail?: string | null;
  /** gate.granted / gate.denied: `read` from the service now, or `stored` (the visit's stored decision). */
  source?: 'read' | 'stored';
}

export type AuditHandler = (event: AuditEvent) => void;

/** Calls the integrator's onAudit; its failure is logged and never reaches the request. */
export function createAudit(handler: AuditHandler | undefined, log: Log, now: () => number) {
  return (event: Omit<AuditEvent, 'at'>): void => {
    if (handler === undefined) return;
    try {
      handler({ ...event, at: new Date(now()).toISOString() });
    } catch (error) {
      log.error('onAudit threw', {
        type: event.type,
        error: error instanceof Error ? error.name : typeof error,
      });
    }
  };
}

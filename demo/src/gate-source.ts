import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuditEvent } from '@verify-kit/express';

/** How the gate answered: `read` from the service now, or `stored` (the visit's stored decision). */
export type GateSource = 'read' | 'stored';

/*
 * The gate tells its source in its audit event, which names no request: the gated request's own
 * async context carries a slot the audit hook fills, read when the response is finished.
 */
const current = new AsyncLocalStorage<{ source?: GateSource }>();

/** Runs the rest of a gated request with a slot for the gate's source; `read()` gives what it was. */
export function trackGateSource(next: () => void): { read(): GateSource | undefined } {
  const slot: { source?: GateSource } = {};
  current.run(slot, next);
  return { read: () => slot.source };
}

/** The kit's onAudit: the gate's source into the slot of the request it answered. */
export function noteGateSource(event: AuditEvent): void {
  if (event.type !== 'gate.granted' && event.type !== 'gate.denied') return;
  const slot = current.getStore();
  if (slot !== undefined && event.source !== undefined) slot.source = event.source;
}

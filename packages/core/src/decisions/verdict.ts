import type { Identification, VerifyKitError } from '@verify-kit/client/fetch';
import type { StatusResponseBody } from '@verify-kit/protocol';
import type { VerificationBinding } from '../bindings/binding.js';
import type { Owner } from '../bindings/bindings.js';
import type { VisitMarker } from './visit-marker.js';

/** A bound verification with the status a decision acted on. */
export interface Found {
  owner: Owner;
  binding: VerificationBinding;
  identification: Identification;
  view: StatusResponseBody;
}

/**
 * The step that decided (the audit's `source`, the gate's answer):
 * - `visit-stored`: inside a visit, the stored APPROVED (no read);
 * - `read`: read from the service now;
 * - `stored-refusal`: inside a visit, the service failed and the stored refusal stands;
 * - `no-binding`: no verification bound to this account or proven by this browser;
 * - `gone`: the service no longer has it (404, 410): verify again;
 * - an upstream error code: the service could not be read where a read was needed.
 */
export type VerdictReason = 'visit-stored' | 'read' | 'stored-refusal' | 'no-binding' | 'gone';

/** One gated request's verdict (core.decide): the gate and statusOf only map it to their answers. */
export type Verdict =
  | {
      kind: 'granted';
      reason: 'visit-stored' | 'read';
      owner: Owner;
      identificationId: string;
      /** Absent for a grant from the visit's stored decision alone (no binding was needed). */
      found?: Found;
    }
  | { kind: 'refused'; reason: 'read' | 'stored-refusal'; owner: Owner; found: Found }
  | { kind: 'unbound'; reason: 'no-binding' | 'gone'; owner: Owner }
  | { kind: 'unavailable'; reason: string; owner: Owner; error: VerifyKitError };

/** Where the status of a verdict came from, as the audit and statusOf say it. */
export const sourceOf = (verdict: Verdict): 'read' | 'stored' | undefined =>
  verdict.kind === 'granted' || verdict.kind === 'refused'
    ? verdict.reason === 'read'
      ? 'read'
      : 'stored'
    : undefined;

export type { VisitMarker };

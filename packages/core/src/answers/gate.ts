import { isKnownStatus, type VerifyKitError } from '@verify-kit/client/fetch';
import type { ErrorResponseBody, Phase } from '@verify-kit/protocol';
import type { Visitor } from '../bindings/kit-request.js';
import { sourceOf, type Verdict } from '../decisions/verdict.js';
import { ERROR_CODE, kitError } from '../shared/errors.js';
import { type GateDecisionEvent, reasonOf } from '../shared/instrumentation.js';
import type { KitCore } from '../wiring/core.js';
import { type Answer, errorAnswer, jsonAnswer } from './answer.js';
import { unavailablePage } from './unavailable-page.js';

/** The 403 of the gate. `status` and `phase` are null when no verification was started. */
export interface NotApprovedBody extends ErrorResponseBody {
  status: string | null;
  phase: Phase | null;
}

/** What the gate's answers need of the request, asked only when it is refused. */
export interface GatedRequest {
  /** A browser navigation (request-guards.ts isNavigation): it gets a page or a redirect. */
  navigation(): boolean;
  /** The request's own path and query when it is a path of this site (the redirect's returnTo). */
  returnTo(): string | undefined;
}

/** One gated request's outcome: the shells only pass it on (next()) or write its answer. */
export type GateOutcome =
  | { kind: 'granted' }
  | { kind: 'refused'; status: string | null; phase: Phase | null; answer: Answer }
  | { kind: 'unavailable'; error: VerifyKitError; answer: Answer };

export function refusalMessage(phase: Phase | null): string {
  return phase === null
    ? 'identity verification required: no verification was started for this account or browser session'
    : `identity verification required (current phase: ${phase})`;
}

const GRANTED: GateOutcome = { kind: 'granted' };

function refusal(
  request: GatedRequest,
  redirectTo: string | undefined,
  status: string | null,
  phase: Phase | null,
): Answer {
  if (redirectTo !== undefined && request.navigation()) {
    const returnTo = request.returnTo();
    const location =
      returnTo === undefined
        ? redirectTo
        : `${redirectTo}${redirectTo.includes('?') ? '&' : '?'}returnTo=${encodeURIComponent(returnTo)}`;
    return { status: 303, headers: { 'Cache-Control': 'no-store', Location: location } };
  }
  const body: NotApprovedBody = {
    error: { code: ERROR_CODE.NOT_APPROVED, message: refusalMessage(phase) },
    status,
    phase,
  };
  return jsonAnswer(403, body);
}

function unavailable(core: KitCore, request: GatedRequest, error: VerifyKitError): GateOutcome {
  core.instrument?.({
    type: 'gate.decision',
    result: 'unavailable',
    reason: reasonOf(error),
    source: 'read',
  });
  core.audit({ type: 'gate.denied', detail: error.code });
  core.logFailure(error, 'requireApproved');
  const answer = request.navigation() ? unavailablePage(error.code) : errorAnswer(error, 503);
  return { kind: 'unavailable', error, answer };
}

/** A granted or refused verdict told to the instrumentation: where its status came from. */
function told(
  verdict: Exclude<Verdict, { kind: 'unavailable' }>,
  visitor: Pick<Visitor, 'carriedDecision'> | undefined,
): GateDecisionEvent {
  const result = verdict.kind === 'granted' ? 'granted' : 'refused';
  if (verdict.kind === 'unbound') {
    const { reason } = verdict;
    return { type: 'gate.decision', result, reason, ...(reason === 'gone' ? { source: 'read' } : {}) };
  }
  if (verdict.reason === 'read') return { type: 'gate.decision', result, reason: 'read', source: 'read' };
  const id = verdict.kind === 'granted' ? verdict.identificationId : verdict.found.binding.identificationId;
  // The anonymous visitor's sealed cookie carries the decision where no shared store does (fetch/visitor.ts).
  const source = visitor?.carriedDecision?.(id) === undefined ? 'store' : 'cookie';
  return { type: 'gate.decision', result, reason: verdict.reason, source };
}

/** A gate that failed before any verdict (a store down, accountOf throwing, a closed kit): 5xx, never a pass. */
export function gateFailed(core: KitCore, error: unknown): void {
  core.instrument?.({ type: 'gate.decision', result: 'unavailable', reason: reasonOf(error) });
}

/**
 * The gate's answer to a verdict (docs/architecture.md, "The gate"): a pass only for a grant; 303
 * for browser navigations when `redirectTo` is set, 403 JSON for the rest; 503 where a read was
 * needed and failed, or the service said a status this kit does not know. Audited and told to the
 * instrumentation here, once (`visitor`: the request's, where it may carry the decision).
 */
export function gateOutcome(
  core: KitCore,
  verdict: Verdict,
  request: GatedRequest,
  redirectTo: string | undefined,
  visitor?: Pick<Visitor, 'carriedDecision'>,
): GateOutcome {
  const { owner } = verdict;
  if (verdict.kind === 'granted') {
    core.instrument?.(told(verdict, visitor));
    const source = verdict.reason === 'read' ? 'read' : 'stored';
    core.audit({
      type: 'gate.granted',
      accountId: owner.accountId,
      identificationId: verdict.identificationId,
      source,
    });
    return GRANTED;
  }
  if (verdict.kind === 'unavailable') return unavailable(core, request, verdict.error);
  const found = verdict.kind === 'refused' ? verdict.found : undefined;
  // An unknown status is an upstream failure for the gate (503), never a pass.
  if (found !== undefined && !isKnownStatus(found.identification.status)) {
    return unavailable(
      core,
      request,
      kitError(ERROR_CODE.UPSTREAM_UNKNOWN_STATUS, 'unknown identification status'),
    );
  }
  core.instrument?.(told(verdict, visitor));
  const status = found?.view.status ?? null;
  const phase = found?.view.phase ?? null;
  const source = sourceOf(verdict);
  core.audit({
    type: 'gate.denied',
    accountId: owner.accountId,
    identificationId: found?.binding.identificationId,
    detail: phase,
    ...(source === undefined ? {} : { source }),
  });
  return { kind: 'refused', status, phase, answer: refusal(request, redirectTo, status, phase) };
}

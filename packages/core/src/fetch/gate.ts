import type { Phase } from '@verify-kit/protocol';
import { isVerifyKitError, VerifyKitError } from '@verify-kit/protocol/errors';
import { errorAnswer } from '../answers/answer.js';
import { type GatedRequest, gateOutcome } from '../answers/gate.js';
import { type GateRules, parseGateRules } from '../answers/gate-rules.js';
import { isThenable } from '../shared/maybe.js';
import { isNavigation, sameOriginPath } from '../shared/request-guards.js';
import type { KitCore } from '../wiring/core.js';
import { headerOf, isHttps, kitRequestOf, type RequestContext } from './kit-request.js';
import { toResponse } from './respond.js';
import { SealedVisitor, type VisitorCookies } from './visitor.js';

/**
 * One gated request's result: pass it on only when `granted`; otherwise send `response` (303 for a
 * navigation with redirectTo, 403 JSON, 503). `headers` go on whatever is sent (the visitor's
 * cookie when the visit began or the session moved).
 */
export type GateResult =
  | { kind: 'granted'; headers: Headers }
  | { kind: 'refused'; headers: Headers; response: Response; status: string | null; phase: Phase | null }
  | { kind: 'unavailable'; headers: Headers; response: Response; error: VerifyKitError };

/** A grant asks nothing of the request. */
const NOT_ASKED: GatedRequest = { navigation: () => false, returnTo: () => undefined };

function gatedRequest(request: Request, context: RequestContext): GatedRequest {
  return {
    navigation: () => isNavigation(request.method, headerOf(request, context)),
    returnTo: () => {
      const url = new URL(request.url);
      return sameOriginPath(url.pathname + url.search);
    },
  };
}

/** A response with the gate's headers added (its own win: they are the answer's). */
function withHeaders(response: Response, headers: Headers): Response {
  for (const [name, value] of headers) if (!response.headers.has(name)) response.headers.append(name, value);
  return response;
}

/**
 * kit.gate(request, rules?, context?): reads the request's headers only, never its body (the
 * request stays whole for the handler after it). The rules are checked once per rules object.
 */
export function createGate(core: KitCore, cookies: VisitorCookies) {
  const parsed = new WeakMap<object, ReturnType<typeof parseGateRules>>();
  const defaults = parseGateRules(undefined, core.decisions.settings);
  const rulesOf = (rules: GateRules | undefined) => {
    if (rules === undefined) return defaults;
    let found = parsed.get(rules);
    if (found === undefined) {
      found = parseGateRules(rules, core.decisions.settings);
      parsed.set(rules, found);
    }
    return found;
  };

  return async function gate(
    request: Request,
    rules?: GateRules,
    context: RequestContext = {},
  ): Promise<GateResult> {
    const { redirectTo, decideOptions } = rulesOf(rules);
    const https = isHttps(request, context);
    let outcome: ReturnType<typeof gateOutcome>;
    let visitor: SealedVisitor | undefined;
    try {
      const found = SealedVisitor.of(core.bindings, cookies, headerOf(request, context)('cookie'), https);
      visitor = isThenable(found) ? await found : found;
      const decided = core.decide(kitRequestOf(request, context, visitor), decideOptions);
      // Inside a visit with a store of this process the verdict is there at once: no step of waiting.
      const verdict = isThenable(decided) ? await decided : decided;
      outcome = gateOutcome(
        core,
        verdict,
        verdict.kind === 'granted' ? NOT_ASKED : gatedRequest(request, context),
        redirectTo,
      );
    } catch (error) {
      const headers = new Headers({ 'Cache-Control': 'no-store' });
      // Not the service's (a closed kit, accountOf, a store that fails): fail closed, as Express does.
      core.logFailure(error, 'gate');
      const response = toResponse(errorAnswer(error), request.method);
      const failed = isVerifyKitError(error)
        ? error
        : new VerifyKitError('INTERNAL_ERROR', 'the gate failed', { cause: error });
      return { kind: 'unavailable', headers, response, error: failed };
    }
    const cookie = visitor.changed ? await visitor.setCookie(cookies, https) : undefined;
    if (outcome.kind === 'granted') {
      return {
        kind: 'granted',
        headers: new Headers(cookie === undefined ? undefined : { 'Set-Cookie': cookie }),
      };
    }
    const headers = new Headers({ 'Cache-Control': 'no-store' });
    if (cookie !== undefined) headers.append('Set-Cookie', cookie);
    const response = withHeaders(toResponse(outcome.answer, request.method), headers);
    if (outcome.kind === 'refused') {
      return { kind: 'refused', headers, response, status: outcome.status, phase: outcome.phase };
    }
    return { kind: 'unavailable', headers, response, error: outcome.error };
  };
}

import type { Phase } from '@verify-kit/protocol';
import { isVerifyKitError, VerifyKitError } from '@verify-kit/protocol/errors';
import { errorAnswer } from '../answers/answer.js';
import { type GatedRequest, gateFailed, gateOutcome } from '../answers/gate.js';
import { type GateRules, parseGateRules } from '../answers/gate-rules.js';
import { isThenable } from '../shared/maybe.js';
import { isNavigation, sameOriginPath } from '../shared/request-guards.js';
import type { KitCore } from '../wiring/core.js';
import { headerOf, kitRequestOf, type RequestContext } from './kit-request.js';
import { toResponse } from './respond.js';
import type { SealedVisitor } from './visitor.js';
import type { Visitors } from './visitors.js';

/** What a granted answer's Cache-Control must say: the page is this person's, for no shared cache. */
export const PRIVATE = 'private, no-store';

/**
 * One gated request's result: pass it on only when `granted`; otherwise send `response` (303 for a
 * navigation with redirectTo, 403 JSON, 503). `headers` go on whatever is sent: the visitor's cookie
 * when the visit began or the session moved, and for a grant `Cache-Control: private, no-store`
 * (the page is this person's: set it on the page's answer, over any Cache-Control of its own).
 */
export type GateResult =
  | {
      kind: 'granted';
      headers: Headers;
      /** The visitor cookie's Set-Cookie among `headers`, when this request changed it (seldom inside a visit). */
      setCookie?: string | undefined;
    }
  | { kind: 'refused'; headers: Headers; response: Response; status: string | null; phase: Phase | null }
  | { kind: 'unavailable'; headers: Headers; response: Response; error: VerifyKitError };

/** A grant, its headers made only when asked for: a shell that knows them needs none made. */
class Granted {
  readonly kind = 'granted';
  #headers: Headers | undefined;

  constructor(readonly setCookie: string | undefined) {}

  /** `Cache-Control: private, no-store`: a granted answer is this person's, for no shared cache. */
  get headers(): Headers {
    if (this.#headers === undefined) {
      this.#headers = new Headers({ 'Cache-Control': PRIVATE });
      if (this.setCookie !== undefined) this.#headers.append('Set-Cookie', this.setCookie);
    }
    return this.#headers;
  }
}

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
export function createGate(core: KitCore, visitors: Visitors) {
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
    let outcome: ReturnType<typeof gateOutcome>;
    let visitor: SealedVisitor | undefined;
    try {
      const found = visitors.of(request, context, visitors.secure(request, context));
      visitor = isThenable(found) ? await found : found;
      const decided = core.decide(kitRequestOf(request, context, visitor), decideOptions);
      // Inside a visit with a store of this process the verdict is there at once: no step of waiting.
      const verdict = isThenable(decided) ? await decided : decided;
      outcome = gateOutcome(
        core,
        verdict,
        verdict.kind === 'granted' ? NOT_ASKED : gatedRequest(request, context),
        redirectTo,
        visitor,
      );
    } catch (error) {
      const headers = new Headers({ 'Cache-Control': 'no-store' });
      // Not the service's (a closed kit, accountOf, a store that fails): fail closed, as Express does.
      gateFailed(core, error);
      core.logFailure(error, 'gate');
      const response = toResponse(errorAnswer(error), request.method);
      const failed = isVerifyKitError(error)
        ? error
        : new VerifyKitError('INTERNAL_ERROR', 'the gate failed', { cause: error });
      return { kind: 'unavailable', headers, response, error: failed };
    }
    // Inside a visit the cookie seldom changes: then nothing is sealed, and nothing waited for.
    const sealing = visitors.setCookie(visitor);
    const cookie = sealing === undefined ? undefined : await sealing;
    if (outcome.kind === 'granted') return new Granted(cookie);
    const headers = new Headers({ 'Cache-Control': 'no-store' });
    if (cookie !== undefined) headers.append('Set-Cookie', cookie);
    const response = withHeaders(toResponse(outcome.answer, request.method), headers);
    if (outcome.kind === 'refused') {
      return { kind: 'refused', headers, response, status: outcome.status, phase: outcome.phase };
    }
    return { kind: 'unavailable', headers, response, error: outcome.error };
  };
}

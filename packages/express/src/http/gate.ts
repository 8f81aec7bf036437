import { VerifyKitError } from '@verify-kit/client';
import {
  type GatedRequest,
  gateFailed,
  gateOutcome,
  refusalMessage,
} from '@verify-kit/core/internal/answers/gate';
import { type GateRules, parseGateRules } from '@verify-kit/core/internal/answers/gate-rules';
import type { Verdict } from '@verify-kit/core/internal/decisions/verdict';
import { ERROR_CODE } from '@verify-kit/core/internal/shared/errors';
import { isThenable } from '@verify-kit/core/internal/shared/maybe';
import { isNavigation, sameOriginPath } from '@verify-kit/core/internal/shared/request-guards';
import type { KitCore } from '@verify-kit/core/internal/wiring/core';
import { fn } from '@verify-kit/core/internal/wiring/option-schemas';
import type { Phase } from '@verify-kit/protocol';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import onHeaders from 'on-headers';
import { z } from 'zod';
import { headerOf, kitRequestOf } from './express-request.js';
import { fail, sendAnswer } from './send-answer.js';

export interface RequireApprovedOptions extends GateRules {
  /**
   * Answers a request the gate cannot decide because the service failed (the response must be
   * sent here; there is no `next`: the gate never passes on a failure). Default: 503, a short HTML
   * page for browser navigations and the JSON error body for anything else.
   */
  onUnavailable?: (req: Request, res: Response, error: VerifyKitError) => void;
  /**
   * 'respond' (default): the gate answers a refusal itself (303 or 403). 'next': a refusal goes to
   * the app's error handler as a VerifyKitError NOT_APPROVED carrying `status` and `phase`.
   */
  onRefuse?: 'respond' | 'next';
}

const ExpressGateOptions = {
  onUnavailable: fn<NonNullable<RequireApprovedOptions['onUnavailable']>>(
    'must be a function (req, res, error) that sends the response',
  ).optional(),
  onRefuse: z.enum(['respond', 'next'], { error: 'must be "respond" or "next"' }).default('respond'),
};

/** What a granted answer's Cache-Control says, over any of the handler's own (core's gate gives the same). */
const PRIVATE = 'private, no-store';

/**
 * A granted answer is this person's: no shared cache (a CDN, a proxy) may keep it for anybody else,
 * whatever Cache-Control the handler after the gate (express.static, a page's own) sets.
 */
function keepPrivate(res: Response): void {
  onHeaders(res, () => {
    res.setHeader('Cache-Control', PRIVATE);
  });
}

/** A grant asks nothing of the request. */
const NOT_ASKED: GatedRequest = { navigation: () => false, returnTo: () => undefined };

function gatedRequest(req: Request): GatedRequest {
  return {
    navigation: () => isNavigation(req.method, headerOf(req)),
    returnTo: () => sameOriginPath(req.originalUrl),
  };
}

/** The refusal as an error for the app's handler (onRefuse: 'next'). */
function notApproved(status: string | null, phase: Phase | null) {
  const error = new VerifyKitError(ERROR_CODE.NOT_APPROVED, refusalMessage(phase), { httpStatus: 403 });
  return Object.assign(error, { verification: { status, phase } });
}

/**
 * The gate (docs/architecture.md, "The gate"): next() only for APPROVED, read from the upstream at
 * the first gated request of a visit and answered from the stored decision inside it (decisions.ts),
 * or read on every request with freshness 'every-request' (coalesced); otherwise 303 for browser
 * navigations, 403 JSON for the rest, 503 where a read is needed and fails.
 */
export function createGate(core: KitCore, input?: RequireApprovedOptions): RequestHandler {
  const { redirectTo, decideOptions, onUnavailable, onRefuse } = parseGateRules(
    input,
    core.decisions.settings,
    ExpressGateOptions,
  );
  const answer = (req: Request, res: Response, next: NextFunction, verdict: Verdict) => {
    // Inside a visit this is all the gate does: nothing of the request is read for a grant.
    const request = verdict.kind === 'granted' ? NOT_ASKED : gatedRequest(req);
    const outcome = gateOutcome(core, verdict, request, redirectTo);
    if (outcome.kind === 'granted') {
      keepPrivate(res);
      return next();
    }
    if (outcome.kind === 'refused') {
      if (onRefuse === 'next') next(notApproved(outcome.status, outcome.phase));
      else sendAnswer(res, outcome.answer);
      return;
    }
    if (onUnavailable === undefined) return sendAnswer(res, outcome.answer);
    try {
      onUnavailable(req, res, outcome.error);
    } catch (handlerError) {
      fail(core, res, handlerError, 'requireApproved onUnavailable', 503);
    }
  };
  const failed = (res: Response, error: unknown) => {
    gateFailed(core, error);
    fail(core, res, error, 'requireApproved');
  };
  return (req, res, next) => {
    // Fail closed: nothing after a failure reaches next(); the handler's own errors are not ours.
    let verdict: Verdict | Promise<Verdict>;
    try {
      verdict = core.decide(kitRequestOf(req, res), decideOptions);
    } catch (error) {
      failed(res, error);
      return;
    }
    if (!isThenable(verdict)) {
      answer(req, res, next, verdict);
      return;
    }
    // A handler after the gate that throws is the app's error (next(error)), never ours to answer.
    verdict
      .then(
        (decided) => answer(req, res, next, decided),
        (error: unknown) => failed(res, error),
      )
      .catch(next);
  };
}

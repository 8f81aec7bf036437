import { isKnownStatus, VerifyKitError } from '@verify-kit/client';
import type { ErrorResponseBody, Phase } from '@verify-kit/protocol';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { z } from 'zod';
import { isThenable } from '../bindings/bindings.js';
import type { DecisionSettings, Freshness } from '../decisions/decisions.js';
import { sourceOf, type Verdict } from '../decisions/verdict.js';
import { ERROR_CODE, kitError, sendError } from '../shared/errors.js';
import { isNavigation, sameOriginPath } from '../shared/request-guards.js';
import type { KitCore } from '../wiring/core.js';
import { FreshnessSchema, fn } from '../wiring/option-schemas.js';
import { invalidOptions } from '../wiring/options.js';
import { kitRequestOf } from './express-request.js';
import { sendUnavailablePage } from './unavailable-page.js';

export interface RequireApprovedOptions {
  /** Where browser navigations go when not approved (a path of this site), with `?returnTo=<path>`. */
  redirectTo?: string;
  /** 'visit' (the kit's default) or 'every-request' (a read per gated request); default the kit's `freshness`. */
  freshness?: Freshness;
  /**
   * 'every-request': reuse a read younger than this (ms); default 0. 'visit': this gate's bound on
   * a stored decision's age before it is re-read in the background (at most the kit's
   * staleIfErrorMs); default the kit's `maxAgeMs`.
   */
  maxAgeMs?: number;
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

/** The 403 of the gate. `status` and `phase` are null when no verification was started. */
export interface NotApprovedBody extends ErrorResponseBody {
  status: string | null;
  phase: Phase | null;
}

const GateOptionsSchema = z.strictObject({
  redirectTo: z
    .string({ error: 'must be a path of this site, e.g. "/verify"' })
    .refine((value) => sameOriginPath(value) !== undefined, {
      error: 'must be a path of this site starting with a single "/", e.g. "/verify"',
    })
    .optional(),
  maxAgeMs: z
    .int({ error: 'must be an integer number of milliseconds' })
    .min(0, { error: 'must be 0 or more' })
    .max(3_600_000, { error: 'must be at most 3600000 (one hour)' })
    .optional(),
  onUnavailable: fn<NonNullable<RequireApprovedOptions['onUnavailable']>>(
    'must be a function (req, res, error) that sends the response',
  ).optional(),
  onRefuse: z.enum(['respond', 'next'], { error: 'must be "respond" or "next"' }).default('respond'),
  freshness: FreshnessSchema.optional(),
});

const KNOWN_GATE_OPTIONS = Object.keys(GateOptionsSchema.shape);

function parseGateOptions(input: unknown, kit: DecisionSettings) {
  const schema = GateOptionsSchema.superRefine((options, ctx) => {
    const visit = (options.freshness ?? kit.freshness) === 'visit';
    if (visit && options.maxAgeMs !== undefined && options.maxAgeMs > kit.staleIfErrorMs) {
      ctx.addIssue({
        code: 'custom',
        path: ['maxAgeMs'],
        message: `must be at most the kit's staleIfErrorMs (${kit.staleIfErrorMs}) with freshness "visit"`,
      });
    }
  });
  const parsed = schema.safeParse(input ?? {});
  if (!parsed.success) throw invalidOptions('requireApproved', parsed.error, KNOWN_GATE_OPTIONS);
  return parsed.data;
}

/** The refusal as an error for the app's handler (onRefuse: 'next'). */
function notApproved(status: string | null, phase: Phase | null) {
  const error = new VerifyKitError(ERROR_CODE.NOT_APPROVED, refusalMessage(phase), { httpStatus: 403 });
  return Object.assign(error, { verification: { status, phase } });
}

function refusalMessage(phase: Phase | null): string {
  return phase === null
    ? 'identity verification required: no verification was started for this account or browser session'
    : `identity verification required (current phase: ${phase})`;
}

function refuse(
  req: Request,
  res: Response,
  redirectTo: string | undefined,
  status: string | null,
  phase: Phase | null,
) {
  res.set('Cache-Control', 'no-store');
  if (redirectTo !== undefined && isNavigation(req)) {
    const returnTo = sameOriginPath(req.originalUrl);
    const location =
      returnTo === undefined
        ? redirectTo
        : `${redirectTo}${redirectTo.includes('?') ? '&' : '?'}returnTo=${encodeURIComponent(returnTo)}`;
    res.status(303).set('Location', location).end();
    return;
  }
  const body: NotApprovedBody = {
    error: { code: ERROR_CODE.NOT_APPROVED, message: refusalMessage(phase) },
    status,
    phase,
  };
  res.status(403).json(body);
}

/**
 * The gate (docs/architecture.md, "The gate"): next() only for APPROVED, read from the upstream at
 * the first gated request of a visit and answered from the stored decision inside it (decisions.ts),
 * or read on every request with freshness 'every-request' (coalesced); otherwise 303 for browser
 * navigations, 403 JSON for the rest, 503 where a read is needed and fails.
 */
export function createGate(core: KitCore, input?: RequireApprovedOptions): RequestHandler {
  const { redirectTo, maxAgeMs, onUnavailable, onRefuse, freshness } = parseGateOptions(
    input,
    core.decisions.settings,
  );
  const decideOptions = {
    ...(freshness === undefined ? {} : { freshness }),
    ...(maxAgeMs === undefined ? {} : { maxAgeMs }),
  };
  const unavailable = (req: Request, res: Response, error: VerifyKitError) => {
    core.audit({ type: 'gate.denied', detail: error.code });
    core.logFailure(error, 'requireApproved');
    if (onUnavailable !== undefined) {
      try {
        onUnavailable(req, res, error);
      } catch (handlerError) {
        core.fail(res, handlerError, 'requireApproved onUnavailable', 503);
      }
    } else if (isNavigation(req)) {
      sendUnavailablePage(res, error.code);
    } else {
      sendError(res, error, 503);
    }
  };
  // Made once per gate, not per request: inside a visit this is all the gate does.
  const answer = (req: Request, res: Response, next: NextFunction, verdict: Verdict) => {
    const { owner } = verdict;
    if (verdict.kind === 'granted') {
      const source = verdict.reason === 'read' ? 'read' : 'stored';
      core.audit({
        type: 'gate.granted',
        accountId: owner.accountId,
        identificationId: verdict.identificationId,
        source,
      });
      next();
      return;
    }
    if (verdict.kind === 'unavailable') return unavailable(req, res, verdict.error);
    const found = verdict.kind === 'refused' ? verdict.found : undefined;
    // An unknown status is an upstream failure for the gate (503), never a pass.
    if (found !== undefined && !isKnownStatus(found.identification.status)) {
      const error = kitError(ERROR_CODE.UPSTREAM_UNKNOWN_STATUS, 'unknown identification status');
      return unavailable(req, res, error);
    }
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
    if (onRefuse === 'next') next(notApproved(status, phase));
    else refuse(req, res, redirectTo, status, phase);
  };
  return (req, res, next) => {
    // Fail closed: nothing after a failure reaches next(); the handler's own errors are not ours.
    let verdict: Verdict | Promise<Verdict>;
    try {
      verdict = core.decide(kitRequestOf(req, res), decideOptions);
    } catch (error) {
      core.fail(res, error, 'requireApproved');
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
        (error: unknown) => core.fail(res, error, 'requireApproved'),
      )
      .catch(next);
  };
}

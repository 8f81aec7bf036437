import { isApproved, isKnownStatus, type VerifyKitError } from '@verify-kit/client';
import type { Request, RequestHandler, Response } from 'express';
import { z } from 'zod';
import { readBinding, sessionOf } from './binding.js';
import type { KitCore } from './core.js';
import { isUpstreamError, KIT_ERROR_CODES, kitError, sendError } from './errors.js';
import { fn, invalidOptions } from './options.js';
import type { ErrorResponseBody, Phase } from './protocol.js';
import { isNavigation, sameOriginPath } from './request-guards.js';
import { sendUnavailablePage } from './unavailable-page.js';

export interface RequireApprovedOptions {
  /** Where browser navigations go when not approved (a path of this site), with `?returnTo=<path>`. */
  redirectTo?: string;
  /** Reuse a status read younger than this (ms) instead of a new upstream read. Default 0. */
  maxAgeMs?: number;
  /**
   * Answers a request the gate cannot decide because the service failed (the response must be
   * sent here; there is no `next`: the gate never passes on a failure). Default: 503, a short HTML
   * page for browser navigations and the JSON error body for anything else.
   */
  onUnavailable?: (req: Request, res: Response, error: VerifyKitError) => void;
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
});

const KNOWN_GATE_OPTIONS = Object.keys(GateOptionsSchema.shape);

function parseGateOptions(
  input: unknown,
): Required<Pick<RequireApprovedOptions, 'maxAgeMs'>> & RequireApprovedOptions {
  const parsed = GateOptionsSchema.safeParse(input ?? {});
  if (!parsed.success) throw invalidOptions('requireApproved', parsed.error, KNOWN_GATE_OPTIONS);
  return {
    maxAgeMs: parsed.data.maxAgeMs ?? 0,
    ...(parsed.data.redirectTo ? { redirectTo: parsed.data.redirectTo } : {}),
    ...(parsed.data.onUnavailable ? { onUnavailable: parsed.data.onUnavailable } : {}),
  };
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
    error: {
      code: KIT_ERROR_CODES.NOT_APPROVED,
      message:
        phase === null
          ? 'identity verification required: no verification was started in this session'
          : `identity verification required (current phase: ${phase})`,
    },
    status,
    phase,
  };
  res.status(403).json(body);
}

/**
 * The gate (DESIGN.md): next() only for APPROVED, read from the upstream on every request (coalesced);
 * otherwise 303 for browser navigations, 403 JSON for the rest, 503 on any upstream failure.
 */
export function createGate(core: KitCore, input?: RequireApprovedOptions): RequestHandler {
  const { redirectTo, maxAgeMs, onUnavailable } = parseGateOptions(input);
  return (req, res, next) => {
    let passed = false;
    const run = async () => {
      core.assertOpen();
      sessionOf(req);
      const binding = readBinding(req);
      if (binding === undefined) {
        refuse(req, res, redirectTo, null, null);
        return;
      }
      const identification = await core.reader.read(binding.identificationId, { maxAgeMs });
      const view = core.describe(binding, identification);
      // DESIGN.md: an unknown status is an upstream failure for the gate (503), never a pass.
      if (!isKnownStatus(identification.status)) {
        throw kitError(KIT_ERROR_CODES.UPSTREAM_UNKNOWN_STATUS, 'unknown identification status');
      }
      if (!isApproved(identification.status)) {
        refuse(req, res, redirectTo, view.status, view.phase);
        return;
      }
      await core.observeApproval(req, binding, identification);
      passed = true;
      next();
    };
    run().catch((error: unknown) => {
      // Fail closed: nothing after a failure reaches next(); the handler's own errors are not ours.
      if (passed) {
        next(error);
        return;
      }
      if (!isUpstreamError(error)) {
        core.fail(res, error, 'requireApproved');
        return;
      }
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
    });
  };
}

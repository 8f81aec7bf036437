import { ERROR_CODES, isVerifyKitError } from '@verify-kit/client';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import { readBinding, sessionOf, type VerificationBinding } from '../binding.js';
import { refuseDeclaredOversize } from '../body-limit.js';
import type { KitCore } from '../core.js';
import { KIT_ERROR_CODES, kitError } from '../errors.js';
import { PHASE } from '../protocol.js';
import { isCrossSite, isJsonContentType } from '../request-guards.js';

const SessionRequestSchema = z.strictObject({ restart: z.boolean().optional() });
const BODY_LIMIT_BYTES = 4 * 1024;

/** Refusals before the body is read: configuration, CSRF, content type. */
function guard(core: KitCore): RequestHandler {
  return (req, res, next) => {
    try {
      core.assertOpen();
      sessionOf(req);
      if (isCrossSite(req)) {
        throw kitError(
          KIT_ERROR_CODES.CROSS_SITE_REQUEST,
          'cross-site requests may not start a verification',
        );
      }
      if (!isJsonContentType(req)) {
        throw kitError(KIT_ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, 'send Content-Type: application/json');
      }
      refuseDeclaredOversize(req, res, BODY_LIMIT_BYTES);
      next();
    } catch (error) {
      core.fail(res, error, 'POST /session');
    }
  };
}

/** The live binding, still usable, with its status; undefined when a new session is needed. */
async function reusable(core: KitCore, req: Request, binding: VerificationBinding) {
  try {
    const identification = await core.reader.read(binding.identificationId);
    const view = core.describe(binding, identification);
    if (view.phase === PHASE.EXPIRED) return undefined;
    await core.observeApproval(req, binding, identification);
    return { binding: readBinding(req) ?? binding, view };
  } catch (error) {
    // The service forgot it (e.g. it was reset): start again rather than fail forever.
    if (isVerifyKitError(error, ERROR_CODES.UPSTREAM_NOT_FOUND)) return undefined;
    throw error;
  }
}

async function handle(core: KitCore, req: Request, res: Response): Promise<void> {
  const parsed = SessionRequestSchema.safeParse(req.body ?? {});
  if (!parsed.success) {
    throw kitError(
      KIT_ERROR_CODES.INVALID_BODY,
      'the body must be {} or { "restart": true }',
      parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    );
  }
  // Another tab of this browser session is creating one right now: share it (no orphan upstream).
  const pending = core.creations.pending(req);
  if (pending !== undefined) {
    respondCreated(core, req, res, await core.creations.join(req, pending));
    return;
  }
  const existing = readBinding(req);
  if (existing !== undefined && parsed.data.restart !== true) {
    const reused = await reusable(core, req, existing);
    if (reused !== undefined) {
      res
        .status(201)
        .set('Cache-Control', 'no-store')
        .json(core.sessionResponse(req, reused.binding, reused.view));
      return;
    }
  }

  // A new verification gets a new session id: whoever knew the old one cannot ride on it.
  const binding = await core.creations.create(req, async () => {
    const body = await core.createBody(req);
    const created = await core.client.createSession(body);
    core.log.debug('verification session created', { identificationId: created.identificationId });
    return {
      verificationSessionId: created.id,
      identificationId: created.identificationId,
      deepLink: created.deepLink,
      sessionCode: created.sessionCode,
      sessionPageLink: created.sessionPageLink,
      expiresAt:
        created.expiresAt !== undefined
          ? new Date(created.expiresAt).toISOString()
          : new Date(core.now() + (body.duration ?? 30) * 60_000).toISOString(),
    } satisfies VerificationBinding;
  });
  respondCreated(core, req, res, binding);
}

function respondCreated(core: KitCore, req: Request, res: Response, binding: VerificationBinding): void {
  // Decision 1 of DESIGN.md: a new identification is IN_AUTOMATIC_REVIEW, nothing submitted yet.
  const view = { status: 'IN_AUTOMATIC_REVIEW', phase: PHASE.AWAITING_USER, expiresAt: binding.expiresAt };
  res
    .status(201)
    .set('Cache-Control', 'no-store')
    .json(core.sessionResponse(req, binding, view));
}

/** POST /session: starts (or resumes) the verification bound to this browser session. */
export function sessionRoute(core: KitCore): RequestHandler[] {
  return [
    guard(core),
    express.json({ limit: BODY_LIMIT_BYTES, type: () => true }),
    (req: Request, res: Response, _next: NextFunction) => {
      handle(core, req, res).catch((error: unknown) => core.fail(res, error, 'POST /session'));
    },
  ];
}

import { ERROR_CODES, isVerifyKitError, VerifyKitError } from '@verify-kit/client';
import type { Response } from 'express';
import type { ErrorResponseBody } from './protocol.js';

/** The kit's own codes, beside the client's (UPSTREAM_*, WEBHOOK_*, INVALID_OPTIONS). */
export const KIT_ERROR_CODES = {
  /** req.session is undefined: express-session is not mounted before the router or the gate. */
  SESSION_MIDDLEWARE_MISSING: 'SESSION_MIDDLEWARE_MISSING',
  /** The session store failed to regenerate or save the session. */
  SESSION_STORE_ERROR: 'SESSION_STORE_ERROR',
  /** POST /session from another site (Sec-Fetch-Site or Origin). */
  CROSS_SITE_REQUEST: 'CROSS_SITE_REQUEST',
  /** POST /session without Content-Type: application/json. */
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  /** The body is not JSON. */
  INVALID_JSON: 'INVALID_JSON',
  /** The body is JSON of the wrong shape. */
  INVALID_BODY: 'INVALID_BODY',
  /** The body is larger than the route accepts. */
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  /** Bad `wait` or `since` on GET /status. */
  INVALID_QUERY: 'INVALID_QUERY',
  /** This browser session has no verification bound to it. */
  NO_VERIFICATION_SESSION: 'NO_VERIFICATION_SESSION',
  /** The gate met a status this kit does not know: not a pass, and not a refusal either (503). */
  UPSTREAM_UNKNOWN_STATUS: 'UPSTREAM_UNKNOWN_STATUS',
  /** The gate refused: the identification is not APPROVED. */
  NOT_APPROVED: 'NOT_APPROVED',
  /** The integrator's sessionOptions(req) threw. */
  SESSION_OPTIONS_FAILED: 'SESSION_OPTIONS_FAILED',
  /** The integrator's sessionOptions(req) returned a body the service would refuse. */
  SESSION_OPTIONS_INVALID: 'SESSION_OPTIONS_INVALID',
  /** POST /webhook while no webhookSecret or webhookVerifier is configured. */
  WEBHOOK_NOT_CONFIGURED: 'WEBHOOK_NOT_CONFIGURED',
  /** A body parser of the app consumed the webhook body before the router. */
  WEBHOOK_BODY_ALREADY_PARSED: 'WEBHOOK_BODY_ALREADY_PARSED',
  /** The signature is valid but the payload is not a v1 event. */
  WEBHOOK_PAYLOAD_INVALID: 'WEBHOOK_PAYLOAD_INVALID',
  /** This webhook-id was already accepted. */
  WEBHOOK_REPLAYED: 'WEBHOOK_REPLAYED',
  /** A method the route does not serve. */
  METHOD_NOT_ALLOWED: 'METHOD_NOT_ALLOWED',
  /** kit.close() was called. */
  KIT_CLOSED: 'KIT_CLOSED',
  /** A bug of the kit; the detail is in the server log. */
  INTERNAL_ERROR: 'INTERNAL_ERROR',
} as const;

export type KitErrorCode = (typeof KIT_ERROR_CODES)[keyof typeof KIT_ERROR_CODES];

/** Every code the kit can put on the wire or throw. */
export const ERROR_CODE = { ...ERROR_CODES, ...KIT_ERROR_CODES } as const;

/** The HTTP status of each code when the router or the gate answers with it. */
const HTTP_STATUS: Record<string, number> = {
  [ERROR_CODES.UPSTREAM_UNAUTHORIZED]: 502,
  [ERROR_CODES.UPSTREAM_BAD_RESPONSE]: 502,
  [ERROR_CODES.UPSTREAM_NOT_FOUND]: 502,
  [ERROR_CODES.UPSTREAM_BAD_REQUEST]: 502,
  [ERROR_CODES.UPSTREAM_UNAVAILABLE]: 503,
  [ERROR_CODES.UPSTREAM_RATE_LIMITED]: 503,
  [ERROR_CODES.UPSTREAM_TIMEOUT]: 504,
  [ERROR_CODES.INVALID_REQUEST]: 400,
  [ERROR_CODES.WEBHOOK_HEADERS_MISSING]: 400,
  [ERROR_CODES.WEBHOOK_SIGNATURE_INVALID]: 401,
  [ERROR_CODES.WEBHOOK_TIMESTAMP_STALE]: 401,
  SESSION_MIDDLEWARE_MISSING: 500,
  SESSION_STORE_ERROR: 500,
  CROSS_SITE_REQUEST: 403,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INVALID_JSON: 400,
  INVALID_BODY: 400,
  PAYLOAD_TOO_LARGE: 413,
  INVALID_QUERY: 400,
  NO_VERIFICATION_SESSION: 404,
  NOT_APPROVED: 403,
  UPSTREAM_UNKNOWN_STATUS: 503,
  SESSION_OPTIONS_FAILED: 500,
  SESSION_OPTIONS_INVALID: 500,
  WEBHOOK_NOT_CONFIGURED: 501,
  WEBHOOK_BODY_ALREADY_PARSED: 500,
  WEBHOOK_PAYLOAD_INVALID: 400,
  WEBHOOK_REPLAYED: 409,
  METHOD_NOT_ALLOWED: 405,
  KIT_CLOSED: 503,
  INTERNAL_ERROR: 500,
};

const UPSTREAM_MESSAGES: Record<string, string> = {
  [ERROR_CODES.UPSTREAM_UNAUTHORIZED]:
    'the identity verification service refused the server’s API key (check the kit’s apiKey option)',
  [ERROR_CODES.UPSTREAM_BAD_RESPONSE]: 'the identity verification service answered something unexpected',
  [ERROR_CODES.UPSTREAM_NOT_FOUND]: 'the identity verification service does not know this verification',
  [ERROR_CODES.UPSTREAM_BAD_REQUEST]: 'the identity verification service refused the request',
  [ERROR_CODES.UPSTREAM_UNAVAILABLE]: 'the identity verification service is unavailable; try again shortly',
  [ERROR_CODES.UPSTREAM_RATE_LIMITED]: 'the identity verification service is busy; try again shortly',
  [ERROR_CODES.UPSTREAM_TIMEOUT]: 'the identity verification service did not answer in time',
  UPSTREAM_UNKNOWN_STATUS: 'the identity verification service reported a status this server does not know',
};

export function kitError(code: KitErrorCode, message: string, details?: unknown[]): VerifyKitError {
  return new VerifyKitError(code, message, details === undefined ? {} : { details });
}

export function isUpstreamError(error: unknown): error is VerifyKitError {
  return isVerifyKitError(error) && error.code.startsWith('UPSTREAM_');
}

/** The HTTP status and wire body for any thrown value; unknown values become INTERNAL_ERROR. */
export function toWire(error: unknown): { status: number; body: ErrorResponseBody } {
  if (!isVerifyKitError(error)) {
    return {
      status: 500,
      body: { error: { code: KIT_ERROR_CODES.INTERNAL_ERROR, message: 'internal error of verify-kit' } },
    };
  }
  // A code of the integrator's own (thrown from sessionOptions) keeps its 4xx status.
  const ownStatus =
    error.status !== undefined && error.status >= 400 && error.status < 500 ? error.status : 500;
  const status = HTTP_STATUS[error.code] ?? ownStatus;
  // Upstream messages are rewritten: the browser learns the class of failure, never the upstream's words.
  const message = UPSTREAM_MESSAGES[error.code] ?? error.message;
  const body: ErrorResponseBody = { error: { code: error.code, message } };
  if (error.details !== undefined && !error.code.startsWith('UPSTREAM_')) body.error.details = error.details;
  return { status, body };
}

export function sendError(res: Response, error: unknown, statusOverride?: number): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const wire = toWire(error);
  res.status(statusOverride ?? wire.status);
  res.setHeader('Cache-Control', 'no-store');
  res.json(wire.body);
}

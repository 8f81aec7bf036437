import { isVerifyKitError, VerifyKitError } from '@verify-kit/client/fetch';
import { ERROR_CODE, type ErrorCode, type ErrorResponseBody } from '@verify-kit/protocol';

export { ERROR_CODE };

/** The HTTP status of each code when the router or the gate answers with it. */
const HTTP_STATUS = {
  UPSTREAM_UNAUTHORIZED: 502,
  UPSTREAM_BAD_RESPONSE: 502,
  UPSTREAM_NOT_FOUND: 502,
  UPSTREAM_BAD_REQUEST: 502,
  UPSTREAM_UNAVAILABLE: 503,
  UPSTREAM_RATE_LIMITED: 503,
  UPSTREAM_TIMEOUT: 504,
  UPSTREAM_UNKNOWN_STATUS: 503,
  INVALID_REQUEST: 400,
  INVALID_OPTIONS: 500,
  WEBHOOK_HEADERS_MISSING: 400,
  WEBHOOK_SIGNATURE_INVALID: 401,
  WEBHOOK_TIMESTAMP_STALE: 401,
  WEBHOOK_NOT_CONFIGURED: 501,
  WEBHOOK_BODY_ALREADY_PARSED: 500,
  SESSION_MIDDLEWARE_MISSING: 500,
  SESSION_STORE_ERROR: 500,
  BINDING_STORE_UNAVAILABLE: 503,
  STORE_SCHEMA_MISMATCH: 503,
  ACCOUNT_RESOLUTION_FAILED: 500,
  SESSION_OPTIONS_FAILED: 500,
  SESSION_OPTIONS_INVALID: 500,
  CROSS_SITE_REQUEST: 403,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INVALID_JSON: 400,
  INVALID_BODY: 400,
  PAYLOAD_TOO_LARGE: 413,
  INVALID_QUERY: 400,
  NO_VERIFICATION_SESSION: 404,
  NOT_APPROVED: 403,
  SESSION_CREATION_IN_PROGRESS: 409,
  SESSION_ENDED: 409,
  TOO_MANY_SESSIONS: 429,
  TOO_MANY_LONG_POLLS: 429,
  TOO_MANY_STATUS_READS: 429,
  SEND_LINK_NOT_ALLOWED: 400,
  SEND_LINK_NO_CONTACT: 403,
  SEND_LINK_COUNTRY_NOT_ALLOWED: 403,
  TOO_MANY_SENDS: 429,
  SEND_LINK_CONTACT_INVALID: 500,
  SEND_LINK_HOOK_FAILED: 500,
  METHOD_NOT_ALLOWED: 405,
  ROUTE_NOT_FOUND: 404,
  KIT_CLOSED: 503,
  STORE_REQUIRED: 500,
  COOKIE_NOT_WRITABLE: 500,
  INTERNAL_ERROR: 500,
} as const satisfies Record<ErrorCode, number>;

const UPSTREAM_MESSAGES: Record<string, string> = {
  UPSTREAM_UNAUTHORIZED:
    'the identity verification service refused the server’s API key (check the kit’s apiKey option)',
  UPSTREAM_BAD_RESPONSE: 'the identity verification service answered something unexpected',
  UPSTREAM_NOT_FOUND: 'the identity verification service does not know this verification',
  UPSTREAM_BAD_REQUEST: 'the identity verification service refused the request',
  UPSTREAM_UNAVAILABLE: 'the identity verification service is unavailable; try again shortly',
  UPSTREAM_RATE_LIMITED: 'the identity verification service is busy; try again shortly',
  UPSTREAM_TIMEOUT: 'the identity verification service did not answer in time',
  UPSTREAM_UNKNOWN_STATUS: 'the identity verification service reported a status this server does not know',
};

export function kitError(code: ErrorCode, message: string, details?: unknown[]): VerifyKitError {
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
      body: { error: { code: ERROR_CODE.INTERNAL_ERROR, message: 'internal error of verify-kit' } },
    };
  }
  // A code of the integrator's own (thrown from sessionOptions) keeps its 4xx status.
  const ownStatus =
    error.status !== undefined && error.status >= 400 && error.status < 500 ? error.status : 500;
  const status = (HTTP_STATUS as Record<string, number>)[error.code] ?? ownStatus;
  // Upstream messages are rewritten: the browser learns the class of failure, never the upstream's words.
  const message = UPSTREAM_MESSAGES[error.code] ?? error.message;
  const body: ErrorResponseBody = { error: { code: error.code, message } };
  if (error.details !== undefined && !error.code.startsWith('UPSTREAM_')) body.error.details = error.details;
  return { status, body };
}

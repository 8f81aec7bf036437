/**
 * One error class for verify-kit, every error with a stable string `code` to catch by.
 * Messages never carry the API key.
 */
export const ERROR_CODES = {
  /** The service refused the API key (401/403). */
  UPSTREAM_UNAUTHORIZED: 'UPSTREAM_UNAUTHORIZED',
  /** The service does not know the session or identification (404/410). */
  UPSTREAM_NOT_FOUND: 'UPSTREAM_NOT_FOUND',
  /** The service rejected the request as invalid (400/422). */
  UPSTREAM_BAD_REQUEST: 'UPSTREAM_BAD_REQUEST',
  /** The service did not answer in time. */
  UPSTREAM_TIMEOUT: 'UPSTREAM_TIMEOUT',
  /** The service could not be reached, or answered 5xx. */
  UPSTREAM_UNAVAILABLE: 'UPSTREAM_UNAVAILABLE',
  /** The service asked us to slow down (429) and retries were used up. */
  UPSTREAM_RATE_LIMITED: 'UPSTREAM_RATE_LIMITED',
  /** The service answered something that is not the v1 format. */
  UPSTREAM_BAD_RESPONSE: 'UPSTREAM_BAD_RESPONSE',
  /** A request body failed validation before it was sent. */
  INVALID_REQUEST: 'INVALID_REQUEST',
  /** Options given to a factory are wrong. */
  INVALID_OPTIONS: 'INVALID_OPTIONS',
  /** Webhook headers missing or malformed. */
  WEBHOOK_HEADERS_MISSING: 'WEBHOOK_HEADERS_MISSING',
  /** No webhook signature matched. */
  WEBHOOK_SIGNATURE_INVALID: 'WEBHOOK_SIGNATURE_INVALID',
  /** The webhook timestamp is outside the tolerance. */
  WEBHOOK_TIMESTAMP_STALE: 'WEBHOOK_TIMESTAMP_STALE',
} as const;

export type KnownErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];
/** Packages built on the client add their own codes (e.g. the express kit's). */
export type ErrorCode = KnownErrorCode | (string & {});

export interface VerifyKitErrorOptions {
  /** The HTTP status the upstream answered, when there was an answer. */
  upstreamStatus?: number;
  /** @deprecated Use `upstreamStatus`. Read as `upstreamStatus` when that is not given. */
  status?: number;
  /** The HTTP status verify-kit answers a browser with for this error (your own 4xx from `sessionOptions`). */
  httpStatus?: number;
  /** The upstream's error body, parsed as JSON when possible (never contains our API key). */
  body?: unknown;
  /** Validation issues or other structured detail. */
  details?: unknown[];
  cause?: unknown;
}

/** Marks verify-kit's errors across copies of this package (two versions installed side by side). */
const BRAND = Symbol.for('verify-kit.error');

export class VerifyKitError extends Error {
  override name = 'VerifyKitError';
  readonly code: ErrorCode;
  /** What the identity verification service answered (HTTP status), when it answered. */
  readonly upstreamStatus: number | undefined;
  /** What verify-kit answers for this error, when it is chosen by whoever threw it. */
  readonly httpStatus: number | undefined;
  readonly body: unknown;
  readonly details: unknown[] | undefined;
  readonly [BRAND] = true;

  constructor(code: ErrorCode, message: string, options: VerifyKitErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.upstreamStatus = options.upstreamStatus ?? options.status;
    this.httpStatus = options.httpStatus;
    this.body = options.body;
    this.details = options.details;
  }

  /** @deprecated Use `upstreamStatus` (the service's answer) or `httpStatus` (verify-kit's). */
  get status(): number | undefined {
    return this.upstreamStatus ?? this.httpStatus;
  }
}

/** A VerifyKitError, of this copy of the package or another (`instanceof` alone misses those). */
export function isVerifyKitError(value: unknown, code?: ErrorCode): value is VerifyKitError {
  const branded =
    value instanceof VerifyKitError ||
    (typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true);
  return branded && (code === undefined || (value as VerifyKitError).code === code);
}

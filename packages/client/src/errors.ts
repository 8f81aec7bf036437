import { ERROR_CODE } from '@verify-kit/protocol';

/**
 * One error class for verify-kit, every error with a stable string `code` to catch by.
 * Messages never carry the API key.
 */
const CLIENT_CODES = [
  'UPSTREAM_UNAUTHORIZED',
  'UPSTREAM_NOT_FOUND',
  'UPSTREAM_BAD_REQUEST',
  'UPSTREAM_TIMEOUT',
  'UPSTREAM_UNAVAILABLE',
  'UPSTREAM_RATE_LIMITED',
  'UPSTREAM_BAD_RESPONSE',
  'INVALID_REQUEST',
  'INVALID_OPTIONS',
  'WEBHOOK_HEADERS_MISSING',
  'WEBHOOK_SIGNATURE_INVALID',
  'WEBHOOK_TIMESTAMP_STALE',
] as const satisfies readonly (keyof typeof ERROR_CODE)[];

/** The codes the client itself throws (documented once, in @verify-kit/protocol's ERROR_CODE). */
export const ERROR_CODES = Object.freeze(
  Object.fromEntries(CLIENT_CODES.map((code) => [code, ERROR_CODE[code]])),
) as { readonly [K in (typeof CLIENT_CODES)[number]]: (typeof ERROR_CODE)[K] };

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
  /** How long the service asked to wait (its `Retry-After`, on a 429 or 503), in milliseconds. */
  retryAfterMs?: number;
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
  /** The service's `Retry-After` in milliseconds, when it gave one. */
  readonly retryAfterMs: number | undefined;
  readonly [BRAND] = true;

  constructor(code: ErrorCode, message: string, options: VerifyKitErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.upstreamStatus = options.upstreamStatus ?? options.status;
    this.httpStatus = options.httpStatus;
    this.body = options.body;
    this.details = options.details;
    this.retryAfterMs = options.retryAfterMs;
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

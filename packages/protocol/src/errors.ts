import type { ErrorCode } from './error-codes.js';

/*
 * One error class for verify-kit (@verify-kit/protocol/errors): the client, core and the kits built
 * on them throw it, every error with a stable string `code` to catch by. Messages never carry the
 * API key. It runs anywhere (no Node built-in), so core's runtime-neutral graph can hold it.
 */

/** A code of ERROR_CODE, or a code of a package built on verify-kit (e.g. an integrator's own). */
export type VerifyKitErrorCode = ErrorCode | (string & {});

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
  readonly code: VerifyKitErrorCode;
  /** What the identity verification service answered (HTTP status), when it answered. */
  readonly upstreamStatus: number | undefined;
  /** What verify-kit answers for this error, when it is chosen by whoever threw it. */
  readonly httpStatus: number | undefined;
  readonly body: unknown;
  readonly details: unknown[] | undefined;
  /** The service's `Retry-After` in milliseconds, when it gave one. */
  readonly retryAfterMs: number | undefined;
  readonly [BRAND] = true;

  constructor(code: VerifyKitErrorCode, message: string, options: VerifyKitErrorOptions = {}) {
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
export function isVerifyKitError(value: unknown, code?: VerifyKitErrorCode): value is VerifyKitError {
  const branded =
    value instanceof VerifyKitError ||
    (typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true);
  return branded && (code === undefined || (value as VerifyKitError).code === code);
}

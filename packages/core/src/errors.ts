import type { ErrorCode as ProtocolErrorCode } from '@verify-kit/protocol';

/*
 * core's error, recognised as one of verify-kit's: the same brand, `Symbol.for('verify-kit.error')`,
 * and the same fields as @verify-kit/client's VerifyKitError, so client's `isVerifyKitError` (and
 * every `catch` that reads `code`) treats them alike. core cannot import the client's class: the
 * client's entry imports undici. The codes are those of @verify-kit/protocol's ERROR_CODE.
 */

/** A code of @verify-kit/protocol's ERROR_CODE, or a code of a package built on core. */
export type ErrorCode = ProtocolErrorCode | (string & {});

export interface VerifyKitErrorOptions {
  /** The HTTP status the upstream answered, when there was an answer. */
  upstreamStatus?: number;
  /** The HTTP status verify-kit answers a browser with for this error. */
  httpStatus?: number;
  body?: unknown;
  details?: unknown[];
  retryAfterMs?: number;
  cause?: unknown;
}

const BRAND = Symbol.for('verify-kit.error');

export class VerifyKitError extends Error {
  override name = 'VerifyKitError';
  readonly code: ErrorCode;
  readonly upstreamStatus: number | undefined;
  readonly httpStatus: number | undefined;
  readonly body: unknown;
  readonly details: unknown[] | undefined;
  readonly retryAfterMs: number | undefined;
  readonly [BRAND] = true;

  constructor(code: ErrorCode, message: string, options: VerifyKitErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.upstreamStatus = options.upstreamStatus;
    this.httpStatus = options.httpStatus;
    this.body = options.body;
    this.details = options.details;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** A verify-kit error of any copy of core or client (`instanceof` alone misses the others). */
export function isVerifyKitError(value: unknown, code?: ErrorCode): value is VerifyKitError {
  const branded =
    value instanceof VerifyKitError ||
    (typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true);
  return branded && (code === undefined || (value as VerifyKitError).code === code);
}

import type { ZodError } from 'zod';

/** Every error code the sandbox answers with; the body is `{ error: { code, message, details? } }`. */
export const SANDBOX_ERROR_CODES = {
  INVALID_JSON: 'INVALID_JSON',
  INVALID_REQUEST: 'INVALID_REQUEST',
  INVALID_PATH: 'INVALID_PATH',
  UNKNOWN_WORKFLOW: 'UNKNOWN_WORKFLOW',
  UNSUPPORTED_CRITERION_TYPE: 'UNSUPPORTED_CRITERION_TYPE',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  METHOD_NOT_ALLOWED: 'METHOD_NOT_ALLOWED',
  SESSION_EXPIRED: 'SESSION_EXPIRED',
  SESSION_ID_MISSING: 'SESSION_ID_MISSING',
  IDENTIFICATION_ID_MISSING: 'IDENTIFICATION_ID_MISSING',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  RATE_LIMITED: 'RATE_LIMITED',
  OTP_INVALID: 'OTP_INVALID',
  OTP_EXPIRED: 'OTP_EXPIRED',
  OTP_TOO_MANY_TRIES: 'OTP_TOO_MANY_TRIES',
  OTP_REQUIRED: 'OTP_REQUIRED',
  OTP_NOT_REQUIRED: 'OTP_NOT_REQUIRED',
  SUBMISSION_NOT_ALLOWED: 'SUBMISSION_NOT_ALLOWED',
  DECISION_NOT_ALLOWED: 'DECISION_NOT_ALLOWED',
  WEBHOOK_NOT_CONFIGURED: 'WEBHOOK_NOT_CONFIGURED',
  INTERNAL_ERROR: 'INTERNAL_ERROR',
} as const;
export type SandboxErrorCode = (typeof SANDBOX_ERROR_CODES)[keyof typeof SANDBOX_ERROR_CODES];

export interface IssueDetail {
  /** Dotted path of the offending field, '' for the body itself. */
  path: string;
  message: string;
}

/** An error that becomes an HTTP answer as is. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: SandboxErrorCode,
    message: string,
    readonly details?: unknown[],
    /** Extra response headers, e.g. Retry-After. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export function issuesOf(error: ZodError): IssueDetail[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}

export function invalidRequest(error: ZodError, what = 'request body'): ApiError {
  const details = issuesOf(error);
  const first = details[0];
  const summary = first ? `${first.path ? `${first.path}: ` : ''}${first.message}` : 'invalid';
  return new ApiError(400, SANDBOX_ERROR_CODES.INVALID_REQUEST, `Invalid ${what}: ${summary}`, details);
}

export const notFound = (what: string) =>
  new ApiError(404, SANDBOX_ERROR_CODES.NOT_FOUND, `${what} not found`);
export const sessionExpired = () =>
  new ApiError(410, SANDBOX_ERROR_CODES.SESSION_EXPIRED, 'The verification session has expired');

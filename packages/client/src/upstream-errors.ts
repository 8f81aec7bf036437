import type { ErrorCode, VerifyKitErrorOptions } from './errors.js';
import type { ReadBody } from './read-body.js';

/** What went wrong, before it becomes a VerifyKitError (the client redacts the API key from it). */
export interface Failure extends VerifyKitErrorOptions {
  code: ErrorCode;
  message: string;
}

const MAX_ERROR_TEXT = 2048;

/** The upstream's body as the error carries it: parsed JSON, else the text (shortened), else undefined. */
export function errorBody(read: ReadBody): unknown {
  if (read.text === '') return undefined;
  if (!read.truncated) {
    try {
      return JSON.parse(read.text);
    } catch {
      // not JSON: keep the text
    }
  }
  return read.text.length > MAX_ERROR_TEXT ? `${read.text.slice(0, MAX_ERROR_TEXT)}…` : read.text;
}

function codeForStatus(status: number): ErrorCode {
  if (status === 400 || status === 422) return 'UPSTREAM_BAD_REQUEST';
  if (status === 401 || status === 403) return 'UPSTREAM_UNAUTHORIZED';
  if (status === 404 || status === 410) return 'UPSTREAM_NOT_FOUND';
  if (status === 429) return 'UPSTREAM_RATE_LIMITED';
  if (status >= 500 && status <= 599) return 'UPSTREAM_UNAVAILABLE';
  return 'UPSTREAM_BAD_RESPONSE';
}

/** A non-2xx answer. */
export function failureForStatus(status: number, what: string, read: ReadBody): Failure {
  return {
    code: codeForStatus(status),
    message: `${what} answered HTTP ${status}`,
    status,
    body: errorBody(read),
  };
}

/**
 * The error code of a network error, looking through undici's and Node's wrappers (Node's fetch
 * rejects with a `TypeError` whose `cause` has it).
 */
export function networkErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string') return code;
  if (Array.isArray(errors)) return networkErrorCode(errors[0]);
  return cause === undefined || cause === error ? undefined : networkErrorCode(cause);
}

const TIMEOUT_CODES = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'ETIMEDOUT',
]);

/** Errors where we know the request never left: no TCP connection was made. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT', 'ENOTFOUND', 'EAI_AGAIN']);

export function wasNeverSent(error: unknown): boolean {
  const code = networkErrorCode(error);
  return code !== undefined && NOT_SENT_CODES.has(code);
}

/** No answer: a connection error, or the time ran out (`timedOut`: our own per-attempt deadline). */
export function failureForNetworkError(error: unknown, what: string, timedOut: boolean): Failure {
  const code = networkErrorCode(error);
  if (timedOut || (code !== undefined && TIMEOUT_CODES.has(code))) {
    return { code: 'UPSTREAM_TIMEOUT', message: `${what} did not answer in time`, cause: error };
  }
  return {
    code: 'UPSTREAM_UNAVAILABLE',
    message: `${what} could not be reached${code === undefined ? '' : ` (${code})`}`,
    cause: error,
  };
}

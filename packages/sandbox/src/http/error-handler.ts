import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { ApiError, SANDBOX_ERROR_CODES, type SandboxErrorCode } from '../errors.js';

export function sendError(res: Response, error: ApiError): void {
  if (error.headers) res.set(error.headers);
  res.set('cache-control', 'no-store');
  res.status(error.status).json({
    error: {
      code: error.code,
      message: error.message,
      ...(error.details === undefined ? {} : { details: error.details }),
    },
  });
}

/** The errors of body-parser, by their `type`. */
const PARSER_ERRORS: Record<string, [number, SandboxErrorCode, string]> = {
  'entity.parse.failed': [400, SANDBOX_ERROR_CODES.INVALID_JSON, 'The request body is not valid JSON'],
  'entity.too.large': [413, SANDBOX_ERROR_CODES.PAYLOAD_TOO_LARGE, 'The request body is too large'],
  'encoding.unsupported': [415, SANDBOX_ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, 'Unsupported content encoding'],
  'charset.unsupported': [415, SANDBOX_ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, 'Unsupported charset; use utf-8'],
  'request.aborted': [400, SANDBOX_ERROR_CODES.INVALID_REQUEST, 'The request was aborted'],
  'request.size.invalid': [
    400,
    SANDBOX_ERROR_CODES.INVALID_REQUEST,
    'The body length does not match Content-Length',
  ],
};

const CODE_BY_STATUS: Record<number, SandboxErrorCode> = {
  401: SANDBOX_ERROR_CODES.UNAUTHORIZED,
  403: SANDBOX_ERROR_CODES.FORBIDDEN,
  404: SANDBOX_ERROR_CODES.NOT_FOUND,
  405: SANDBOX_ERROR_CODES.METHOD_NOT_ALLOWED,
  413: SANDBOX_ERROR_CODES.PAYLOAD_TOO_LARGE,
  415: SANDBOX_ERROR_CODES.UNSUPPORTED_MEDIA_TYPE,
};

function toApiError(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) return err;
  if (typeof err !== 'object' || err === null) return undefined;
  const { type, status } = err as { type?: unknown; status?: unknown };
  if (typeof type === 'string' && PARSER_ERRORS[type]) {
    const [s, code, message] = PARSER_ERRORS[type];
    return new ApiError(s, code, message);
  }
  // Other client errors raised by Express itself, e.g. a path parameter with bad percent-encoding.
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (err instanceof URIError) {
      return new ApiError(400, SANDBOX_ERROR_CODES.INVALID_PATH, 'The path is not valid percent-encoding');
    }
    return new ApiError(status, CODE_BY_STATUS[status] ?? SANDBOX_ERROR_CODES.INVALID_REQUEST, 'Bad request');
  }
  return undefined;
}

export const errorHandler: ErrorRequestHandler = (err, _req, res, next) => {
  if (res.headersSent) {
    next(err);
    return;
  }
  const known = toApiError(err);
  if (known) {
    sendError(res, known);
    return;
  }
  // A bug of ours; the message is generic so nothing internal leaks.
  console.error('[verify-kit sandbox] unexpected error:', err);
  sendError(res, new ApiError(500, SANDBOX_ERROR_CODES.INTERNAL_ERROR, 'Internal error of the sandbox'));
};

export const notFoundHandler: RequestHandler = (_req, res) => {
  sendError(res, new ApiError(404, SANDBOX_ERROR_CODES.NOT_FOUND, 'No such endpoint'));
};

export function methodNotAllowed(allowed: string[]): RequestHandler {
  return (_req, res) => {
    res.set('allow', allowed.join(', '));
    sendError(
      res,
      new ApiError(
        405,
        SANDBOX_ERROR_CODES.METHOD_NOT_ALLOWED,
        `Method not allowed; use ${allowed.join(' or ')}`,
      ),
    );
  };
}

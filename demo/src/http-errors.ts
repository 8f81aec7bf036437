import { ERROR_CODE, isVerifyKitError } from '@verify-kit/express';
import type { ErrorRequestHandler, Response } from 'express';
import type { z } from 'zod';

/** docs/architecture.md's error body: `{ error: { code, message, details? } }`. */
export function sendError(
  res: Response,
  status: number,
  code: string,
  message: string,
  details?: unknown[],
): void {
  res.status(status).json({ error: details === undefined ? { code, message } : { code, message, details } });
}

export function sendValidationError(res: Response, error: z.ZodError): void {
  const details = error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  const first = details[0];
  const message = first ? `${first.path || 'body'}: ${first.message}` : 'the request body is not valid';
  sendError(res, 400, ERROR_CODE.INVALID_BODY, message, details);
}

/** body-parser's failures as 4xx with codes, the service's as 503; anything else a 500 without internals. */
export const jsonErrorHandler: ErrorRequestHandler = (err, req, res, next) => {
  if (res.headersSent) return next(err);
  if (isVerifyKitError(err) && err.code.startsWith('UPSTREAM_')) {
    return sendError(res, 503, err.code, 'the identity verification service cannot be reached right now');
  }
  const type = typeof err === 'object' && err !== null ? (err as { type?: unknown }).type : undefined;
  if (type === 'entity.parse.failed')
    return sendError(res, 400, ERROR_CODE.INVALID_JSON, 'the request body is not valid JSON');
  if (type === 'entity.too.large')
    return sendError(res, 413, ERROR_CODE.PAYLOAD_TOO_LARGE, 'the request body is too large');
  const status = typeof err === 'object' && err !== null ? (err as { status?: unknown }).status : undefined;
  if (status === 404) return sendError(res, 404, 'NOT_FOUND', 'there is nothing at this address');
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return sendError(res, status, 'BAD_REQUEST', 'the request could not be understood');
  }
  console.error(
    `demo: unexpected error on ${req.method} ${req.path}:`,
    err instanceof Error ? err.message : err,
  );
  sendError(res, 500, ERROR_CODE.INTERNAL_ERROR, 'something went wrong on the demo server; please try again');
};

import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
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
  sendError(res, 400, 'INVALID_REQUEST', message, details);
}

/**
 * The demo's own JSON API refuses cross-site requests (Fetch Metadata, then Origin) and bodies that
 * are not JSON, which together stop CSRF without tokens.
 */
export const requireSameOriginJson: RequestHandler = (req, res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD') return next();
  const site = req.get('sec-fetch-site');
  if (site !== undefined) {
    if (site !== 'same-origin' && site !== 'none') {
      return sendError(res, 403, 'CROSS_SITE_REQUEST', 'this request came from another site and was refused');
    }
  } else {
    const origin = req.get('origin');
    if (origin !== undefined && origin !== `${req.protocol}://${req.get('host')}`) {
      return sendError(res, 403, 'CROSS_SITE_REQUEST', 'this request came from another site and was refused');
    }
  }
  if (!req.is('application/json')) {
    return sendError(res, 415, 'UNSUPPORTED_MEDIA_TYPE', 'send the request body as application/json');
  }
  next();
};

/** body-parser's failures as 4xx with codes; anything else a 500 without internals. */
export const jsonErrorHandler: ErrorRequestHandler = (err, req, res, next) => {
  if (res.headersSent) return next(err);
  const type = typeof err === 'object' && err !== null ? (err as { type?: unknown }).type : undefined;
  if (type === 'entity.parse.failed')
    return sendError(res, 400, 'INVALID_JSON', 'the request body is not valid JSON');
  if (type === 'entity.too.large')
    return sendError(res, 413, 'BODY_TOO_LARGE', 'the request body is too large');
  const status = typeof err === 'object' && err !== null ? (err as { status?: unknown }).status : undefined;
  if (status === 404) return sendError(res, 404, 'NOT_FOUND', 'there is nothing at this address');
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return sendError(res, status, 'BAD_REQUEST', 'the request could not be understood');
  }
  console.error(
    `demo: unexpected error on ${req.method} ${req.path}:`,
    err instanceof Error ? err.message : err,
  );
  sendError(res, 500, 'INTERNAL_ERROR', 'something went wrong on the demo server; please try again');
};

import express, { type RequestHandler } from 'express';
import { ApiError, SANDBOX_ERROR_CODES } from '../errors.js';

export const BODY_LIMIT_BYTES = 64 * 1024;

const parseJson = express.json({ limit: BODY_LIMIT_BYTES, strict: false, type: () => true });

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length !== '0';
}

/**
 * Parses a JSON body: none at all leaves `req.body` undefined (the schema then says what is
 * missing); a body that is not `application/json` (or `+json`) is 415; errors of the parser are
 * turned into 4xx by the error handler.
 */
export const jsonBody: RequestHandler = (req, res, next) => {
  if (!hasBody(req.headers)) {
    req.body = undefined;
    next();
    return;
  }
  if (!req.is(['application/json', '+json'])) {
    next(
      new ApiError(
        415,
        SANDBOX_ERROR_CODES.UNSUPPORTED_MEDIA_TYPE,
        'The request body must be JSON (Content-Type: application/json)',
      ),
    );
    return;
  }
  parseJson(req, res, next);
};

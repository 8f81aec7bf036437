import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { ApiError, SANDBOX_ERROR_CODES } from '../errors.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Checks `x-api-key` in constant time; the failure answers never echo the key. */
export function apiKeyGuard(apiKey: string) {
  const expected = digest(apiKey);
  const valid = (given: unknown) => typeof given === 'string' && timingSafeEqual(digest(given), expected);
  return (failStatus: 401 | 403): RequestHandler =>
    (req, _res, next) => {
      const given = req.headers['x-api-key'];
      if (valid(given)) {
        next();
        return;
      }
      const message =
        given === undefined ? 'The x-api-key header is missing' : 'The x-api-key header is invalid';
      next(
        failStatus === 401
          ? new ApiError(401, SANDBOX_ERROR_CODES.UNAUTHORIZED, message)
          : new ApiError(403, SANDBOX_ERROR_CODES.FORBIDDEN, message),
      );
    };
}

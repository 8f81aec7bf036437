import type { Request, RequestHandler } from 'express';
import { ApiError, SANDBOX_ERROR_CODES } from '../errors.js';
import type { RateLimiter } from '../rate-limit.js';

const clientOf = (req: Request) => req.socket.remoteAddress ?? 'unknown';

const tooMany = (waitSeconds: number) =>
  new ApiError(
    429,
    SANDBOX_ERROR_CODES.RATE_LIMITED,
    `Too many requests; retry in ${waitSeconds} s`,
    undefined,
    {
      'retry-after': String(waitSeconds),
    },
  );

/** 429 RATE_LIMITED with Retry-After for a client address over `limiter`'s budget of requests. */
export function throttle(limiter: RateLimiter): RequestHandler {
  return (req, _res, next) => {
    const waitSeconds = limiter.hit(clientOf(req));
    next(waitSeconds === undefined ? undefined : tooMany(waitSeconds));
  };
}

/**
 * The same budget spent only by requests answered 404 (a guess that missed): a person who types a
 * right code is never slowed down; a script trying codes is, once it has missed `limit` times.
 */
export function throttleMisses(limiter: RateLimiter): RequestHandler {
  return (req, res, next) => {
    const waitSeconds = limiter.blocked(clientOf(req));
    if (waitSeconds !== undefined) {
      next(tooMany(waitSeconds));
      return;
    }
    res.once('finish', () => {
      if (res.statusCode === 404) limiter.hit(clientOf(req));
    });
    next();
  };
}

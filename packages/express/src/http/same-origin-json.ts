import { ERROR_CODE, kitError } from '@verify-kit/core/internal/shared/errors';
import { isCrossSite, isJsonContentType } from '@verify-kit/core/internal/shared/request-guards';
import type { RequestHandler } from 'express';
import { headerOf } from './express-request.js';
import { sendError } from './send-answer.js';

/**
 * The kit's CSRF rule for an app's own JSON API, the one `POST /session` follows: a request that
 * changes state (not GET, HEAD or OPTIONS) is refused with 403 `CROSS_SITE_REQUEST` when it comes
 * from another site (Fetch Metadata, else Origin against Host), and with 415
 * `UNSUPPORTED_MEDIA_TYPE` unless its body is JSON (forms and "simple" requests cannot send it, and
 * a cross-origin JSON request needs a CORS preflight). Mount it before the body parser.
 */
export function sameOriginJson(): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
    const header = headerOf(req);
    if (isCrossSite(header, Boolean(req.app?.get('trust proxy')))) {
      return sendError(res, kitError(ERROR_CODE.CROSS_SITE_REQUEST, 'this request came from another site'));
    }
    if (!isJsonContentType(header)) {
      return sendError(
        res,
        kitError(ERROR_CODE.UNSUPPORTED_MEDIA_TYPE, 'send Content-Type: application/json'),
      );
    }
    next();
  };
}

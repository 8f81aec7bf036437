import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { KitCore } from './core.js';
import { KIT_ERROR_CODES, kitError } from './errors.js';
import { qrRoute } from './routes/qr.js';
import { sessionRoute } from './routes/session.js';
import { statusRoute } from './routes/status.js';
import { webhookRoute } from './routes/webhook.js';

interface BodyParserError {
  type?: string;
  status?: number;
}

/** body-parser's errors (the router's own parsers) as the kit's JSON errors. */
function bodyError(error: unknown) {
  const { type, status } = (error ?? {}) as BodyParserError;
  switch (type) {
    case 'entity.parse.failed':
      return kitError(KIT_ERROR_CODES.INVALID_JSON, 'the body is not valid JSON');
    case 'entity.too.large':
      return kitError(KIT_ERROR_CODES.PAYLOAD_TOO_LARGE, 'the body is too large');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return kitError(
        KIT_ERROR_CODES.UNSUPPORTED_MEDIA_TYPE,
        'send a UTF-8 JSON body without content encoding',
      );
    default:
      if (typeof status === 'number' && status >= 400 && status < 500) {
        return kitError(KIT_ERROR_CODES.INVALID_BODY, 'the request body could not be read');
      }
      return error;
  }
}

function methodNotAllowed(allow: string) {
  return (_req: Request, res: Response) => {
    res.set('Allow', allow).set('Cache-Control', 'no-store').status(405);
    res.json({ error: { code: KIT_ERROR_CODES.METHOD_NOT_ALLOWED, message: `use ${allow}` } });
  };
}

/** The widget protocol and the webhook receiver, to mount with app.use('/identity', kit.router). */
export function createRouter(core: KitCore): Router {
  const router = express.Router();
  router
    .route('/session')
    .post(...sessionRoute(core))
    .all(methodNotAllowed('POST'));
  router.route('/status').get(statusRoute(core)).all(methodNotAllowed('GET, HEAD'));
  router.route('/qr.svg').get(qrRoute(core)).all(methodNotAllowed('GET, HEAD'));
  router
    .route('/webhook')
    .post(...webhookRoute(core))
    .all(methodNotAllowed('POST'));
  router.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    core.fail(res, bodyError(error), 'router');
  });
  return router;
}

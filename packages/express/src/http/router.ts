import { methodNotAllowed as notAllowed } from '@verify-kit/core/internal/answers/answer';
import type { KitCore } from '@verify-kit/core/internal/wiring/core';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { qrRoute } from './routes/qr.js';
import { sessionRoute } from './routes/session.js';
import { statusRoute } from './routes/status.js';
import { webhookRoute } from './routes/webhook.js';
import { fail, sendAnswer } from './send-answer.js';

function methodNotAllowed(allow: string) {
  const answer = notAllowed(allow);
  return (_req: Request, res: Response) => sendAnswer(res, answer);
}

/** The widget protocol and the webhook receiver, to mount with app.use('/identity', kit.router). */
export function createRouter(core: KitCore): Router {
  const router = express.Router();
  router.route('/session').post(sessionRoute(core)).all(methodNotAllowed('POST'));
  router.route('/status').get(statusRoute(core)).all(methodNotAllowed('GET, HEAD'));
  router.route('/qr.svg').get(qrRoute(core)).all(methodNotAllowed('GET, HEAD'));
  router.route('/webhook').post(webhookRoute(core)).all(methodNotAllowed('POST'));
  router.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    fail(core, res, error, 'router');
  });
  return router;
}

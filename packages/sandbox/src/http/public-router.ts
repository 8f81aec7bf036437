import { type Request, type Response, Router } from 'express';
import { ApiError } from '../errors.js';
import type { SandboxService } from '../service.js';
import { sendError } from './error-handler.js';
import { errorPage, publicSessionPage, sendHtml } from './html.js';

/** Pages a person opens in a browser: no key (docs/architecture.md, decision 8). */
export function publicRouter(service: SandboxService, base: () => string): Router {
  const router = Router();

  router.get('/verification-sessions/:id', (req, res) => {
    try {
      sendHtml(res, 200, publicSessionPage(base(), service.liveSession(String(req.params.id))));
    } catch (err) {
      answerPageError(req, res, base(), err);
    }
  });

  return router;
}

/** A browser gets a small HTML page, any other client the JSON error body; same status either way. */
export function answerPageError(req: Request, res: Response, base: string, err: unknown): void {
  if (!(err instanceof ApiError)) throw err;
  if (req.accepts(['json', 'html']) === 'html')
    sendHtml(res, err.status, errorPage(base, err.status, err.message));
  else sendError(res, err);
}

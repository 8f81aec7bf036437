import { answerStatus } from '@verify-kit/core/internal/answers/status';
import type { KitCore } from '@verify-kit/core/internal/wiring/core';
import type { Request, RequestHandler, Response } from 'express';
import { kitRequestOf } from '../express-request.js';
import { sendAnswer } from '../send-answer.js';

/** The query parameters as the client sent them (independent of the app's query parser). */
function queryOf(req: Request): URLSearchParams {
  const raw = req.originalUrl ?? req.url ?? '';
  const at = raw.indexOf('?');
  return new URLSearchParams(at === -1 ? '' : raw.slice(at + 1));
}

/** Aborts when the client leaves before its answer is written (a long-poll's slot goes with it). */
function clientGone(res: Response): AbortSignal {
  const controller = new AbortController();
  const onClose = () => {
    if (!res.writableEnded) controller.abort();
  };
  res.once('close', onClose);
  return controller.signal;
}

/** GET /status[?wait=<s>&since=<phase>]: the bound identification only; no id comes from the client. */
export function statusRoute(core: KitCore): RequestHandler {
  return (req, res) => {
    answerStatus(core, kitRequestOf(req, res), queryOf(req), clientGone(res)).then((answer) =>
      sendAnswer(res, answer),
    );
  };
}

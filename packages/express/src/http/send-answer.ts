import { type Answer, errorAnswer } from '@verify-kit/core/internal/answers/answer';
import type { KitCore } from '@verify-kit/core/internal/wiring/core';
import type { Response } from 'express';

/** Writes an answer on `res`; nothing when the client left, a destroyed socket when headers went out. */
export function sendAnswer(res: Response, answer: Answer | undefined): void {
  if (answer === undefined || res.writableEnded || res.destroyed) return;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(answer.status).set(answer.headers);
  const { body } = answer;
  if (body === undefined) res.end();
  else if ('json' in body) res.json(body.json);
  else res.send(body.text);
}

/** The error's answer on `res` (its status, or `statusOverride`). */
export function sendError(res: Response, error: unknown, statusOverride?: number): void {
  sendAnswer(res, errorAnswer(error, statusOverride));
}

/** Logs what the operator needs (never the key, never a body) and answers with the error. */
export function fail(core: KitCore, res: Response, error: unknown, where: string, statusOverride?: number) {
  core.logFailure(error, where);
  sendError(res, error, statusOverride);
}

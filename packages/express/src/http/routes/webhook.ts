import { WEBHOOK_BODY_LIMIT_BYTES, webhookReceiver } from '@verify-kit/core/internal/answers/webhook';
import type { KitCore } from '@verify-kit/core/internal/wiring/core';
import type { Request, RequestHandler } from 'express';
import { readBody } from '../body.js';
import { sendAnswer } from '../send-answer.js';

/** The request's headers as a Headers object (a repeated header joined with ", ", as Node does). */
function headersOf(req: Request): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

/** POST /webhook (answers/webhook.ts): the 204 once its work is done (at most 3 s), the rest after it. */
export function webhookRoute(core: KitCore): RequestHandler {
  const receive = webhookReceiver(core);
  return (req, res) => {
    // express.raw() ran before: the exact bytes; any other parser: refused (it consumed them).
    const raw = Buffer.isBuffer(req.body);
    const parsed = !raw && ((req as Request & { _body?: boolean })._body === true || req.readableEnded);
    receive({
      alreadyParsed: parsed,
      readBody: () => readBody(req, res, WEBHOOK_BODY_LIMIT_BYTES),
      headers: headersOf(req),
      verifierInput: (body) => ({ headers: req.headers, body }),
    }).then(async ({ answer, after }) => {
      sendAnswer(res, answer);
      await after?.();
    });
  };
}

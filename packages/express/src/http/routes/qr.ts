import type { RequestHandler } from 'express';
import { answerQr } from '../../answers/qr.js';
import type { KitCore } from '../../wiring/core.js';
import { kitRequestOf } from '../express-request.js';
import { sendAnswer } from '../send-answer.js';

/** GET /qr.svg: the bound deep link as an SVG QR code (answers/qr.ts). */
export function qrRoute(core: KitCore): RequestHandler {
  return (req, res) => {
    answerQr(core, kitRequestOf(req, res)).then((answer) => sendAnswer(res, answer));
  };
}

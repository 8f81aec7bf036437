import { answerQr } from '@verify-kit/core/internal/answers/qr';
import type { KitCore } from '@verify-kit/core/internal/wiring/core';
import type { RequestHandler } from 'express';
import { kitRequestOf } from '../express-request.js';
import { sendAnswer } from '../send-answer.js';

/** GET /qr.svg: the bound deep link as an SVG QR code (answers/qr.ts). */
export function qrRoute(core: KitCore): RequestHandler {
  return (req, res) => {
    answerQr(core, kitRequestOf(req, res)).then((answer) => sendAnswer(res, answer));
  };
}

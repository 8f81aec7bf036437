import type { Request, Response } from 'express';
import { KIT_ERROR_CODES, kitError } from './errors.js';

/**
 * Refuses a body whose declared Content-Length is over `limitBytes` before reading a byte of it.
 * body-parser would answer 413 too, but only after reading (and discarding) the whole body, which a
 * client can make arbitrarily long or never send; here the connection is closed after the answer.
 */
export function refuseDeclaredOversize(req: Request, res: Response, limitBytes: number): void {
  const declared = req.get('content-length');
  if (declared === undefined || !/^\d+$/.test(declared) || Number(declared) <= limitBytes) return;
  res.setHeader('Connection', 'close');
  throw kitError(KIT_ERROR_CODES.PAYLOAD_TOO_LARGE, 'the body is too large');
}

import { ERROR_CODE, kitError } from '@verify-kit/core/internal/shared/errors';
import type { Request, Response } from 'express';

/**
 * 413 and the connection closed once the answer is out: neither a declared nor a streamed body
 * over the limit is read to its end (a client can make it arbitrarily long, or never finish it).
 */
function tooLarge(req: Request, res: Response) {
  res.setHeader('Connection', 'close');
  res.once('finish', () => req.socket?.destroy());
  return kitError(ERROR_CODE.PAYLOAD_TOO_LARGE, 'the body is too large');
}

/** The raw body, at most `limitBytes`, refused before a byte is read when its declared length is over. */
export function readBody(req: Request, res: Response, limitBytes: number): Promise<Buffer> {
  // An app's express.raw() ran first: the exact bytes are already here.
  if (Buffer.isBuffer(req.body)) return Promise.resolve(req.body);
  const encoding = (req.get('content-encoding') ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity') {
    return Promise.reject(
      kitError(ERROR_CODE.UNSUPPORTED_MEDIA_TYPE, 'send the body without Content-Encoding'),
    );
  }
  const declared = req.get('content-length');
  if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > limitBytes) {
    return Promise.reject(tooLarge(req, res));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) {
        cleanup();
        req.pause();
        reject(tooLarge(req, res));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(kitError(ERROR_CODE.INVALID_BODY, `the request body could not be read (${error.message})`));
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/** The body as JSON: INVALID_JSON when it is not (an empty body is `{}`). */
export async function readJson(req: Request, res: Response, limitBytes: number): Promise<unknown> {
  if (req.body !== undefined && !Buffer.isBuffer(req.body) && (req as { _body?: boolean })._body) {
    return req.body; // the app's express.json() parsed it already
  }
  const raw = await readBody(req, res, limitBytes);
  if (raw.length === 0) return {};
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw kitError(ERROR_CODE.INVALID_JSON, 'the body is not valid JSON');
  }
}

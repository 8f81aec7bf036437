import { ERROR_CODE, kitError } from '../shared/errors.js';

const tooLarge = () => kitError(ERROR_CODE.PAYLOAD_TOO_LARGE, 'the body is too large');

/**
 * The raw body, at most `limitBytes`: refused before a byte is read when its declared length is
 * over, and the stream cancelled as soon as it passes the limit (a client can make it arbitrarily
 * long, or never finish it).
 */
export async function readBody(request: Request, limitBytes: number): Promise<Uint8Array> {
  const encoding = (request.headers.get('content-encoding') ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity') {
    throw kitError(ERROR_CODE.UNSUPPORTED_MEDIA_TYPE, 'send the body without Content-Encoding');
  }
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limitBytes) throw tooLarge();
  if (request.body === null) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limitBytes) {
        reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === ERROR_CODE.PAYLOAD_TOO_LARGE) throw error;
    throw kitError(ERROR_CODE.INVALID_BODY, 'the request body could not be read');
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

/** The body as JSON: INVALID_JSON when it is not (an empty body is `{}`). */
export async function readJson(request: Request, limitBytes: number): Promise<unknown> {
  const raw = await readBody(request, limitBytes);
  if (raw.length === 0) return {};
  try {
    return JSON.parse(new TextDecoder().decode(raw));
  } catch {
    throw kitError(ERROR_CODE.INVALID_JSON, 'the body is not valid JSON');
  }
}

import type { KitRequest } from '../bindings/kit-request.js';
import type { KitCore } from '../wiring/core.js';
import { type Answer, errorAnswer } from './answer.js';
import { noVerification } from './status.js';

const MAX_AGE_CAP_SECONDS = 3600;

async function answer(core: KitCore, req: KitRequest): Promise<Answer> {
  core.assertOpen();
  const owner = await core.bindings.ownerOf(req);
  const binding = await core.bindings.find(req, owner);
  if (binding === undefined) throw noVerification();
  const svg = await core.qr.svg(binding.deepLink);
  const secondsLeft = Math.floor((Date.parse(binding.expiresAt) - core.now()) / 1000);
  const maxAge = Math.max(0, Math.min(MAX_AGE_CAP_SECONDS, secondsLeft));
  return {
    status: 200,
    headers: {
      'Content-Type': 'image/svg+xml; charset=utf-8',
      'Cache-Control': `private, max-age=${maxAge}`,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
    },
    body: { text: svg },
  };
}

/**
 * GET /qr.svg: the bound deep link as an SVG QR code, rendered here (no upstream call, no key). The
 * session answer carries the same image; this stays for pages that link it.
 */
export function answerQr(core: KitCore, req: KitRequest): Promise<Answer> {
  return answer(core, req).catch((error: unknown) => {
    core.logFailure(error, 'GET /qr.svg');
    return errorAnswer(error);
  });
}

import type { RequestHandler } from 'express';
import type { KitCore } from '../../wiring/core.js';
import { kitRequestOf } from '../express-request.js';
import { noVerification } from './status.js';

const MAX_AGE_CAP_SECONDS = 3600;

/**
 * GET /qr.svg: the bound deep link as an SVG QR code, rendered here (no upstream call, no key). The
 * session answer carries the same image; this stays for pages that link it.
 */
export function qrRoute(core: KitCore): RequestHandler {
  return (req, res) => {
    const run = async () => {
      core.assertOpen();
      const kreq = kitRequestOf(req, res);
      const owner = await core.bindings.ownerOf(kreq);
      const binding = await core.bindings.find(kreq, owner);
      if (binding === undefined) throw noVerification();
      const svg = await core.qr.svg(binding.deepLink);
      const secondsLeft = Math.floor((Date.parse(binding.expiresAt) - core.now()) / 1000);
      const maxAge = Math.max(0, Math.min(MAX_AGE_CAP_SECONDS, secondsLeft));
      res
        .status(200)
        .set({
          'Content-Type': 'image/svg+xml; charset=utf-8',
          'Cache-Control': `private, max-age=${maxAge}`,
          'X-Content-Type-Options': 'nosniff',
          'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
        })
        .send(svg);
    };
    run().catch((error: unknown) => core.fail(res, error, 'GET /qr.svg'));
  };
}

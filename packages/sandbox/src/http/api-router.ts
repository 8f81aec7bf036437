import { type Request, Router } from 'express';
import { ApiError, SANDBOX_ERROR_CODES } from '../errors.js';
import { qrPng } from '../qr.js';
import type { RateLimiter } from '../rate-limit.js';
import type { SandboxService } from '../service.js';
import { jsonBody } from './body.js';
import { methodNotAllowed } from './error-handler.js';
import { throttle } from './throttle.js';

type Guard = (failStatus: 401 | 403) => import('express').RequestHandler;

const noStore = { 'cache-control': 'no-store' };

/** An id that is empty or only white space counts as missing. */
function idParam(req: Request, missing: () => ApiError): string {
  const id = String(req.params.id ?? '');
  if (id.trim() === '') throw missing();
  return id;
}
const sessionIdMissing = () =>
  new ApiError(
    400,
    SANDBOX_ERROR_CODES.SESSION_ID_MISSING,
    'The verification session id is missing from the path',
  );
const identificationIdMissing = () =>
  new ApiError(
    400,
    SANDBOX_ERROR_CODES.IDENTIFICATION_ID_MISSING,
    'The identification id is missing from the path',
  );

/** The four endpoints of the spec, under /api/v1. */
export function apiRouter(service: SandboxService, guard: Guard, limiter: RateLimiter | undefined): Router {
  const router = Router();

  if (limiter) router.use(throttle(limiter));

  router.post('/verification-sessions', guard(401), jsonBody, (req, res) => {
    res.status(201).set(noStore).json(service.createSession(req.body));
  });
  router.all('/verification-sessions', methodNotAllowed(['POST']));

  router.get('/verification-sessions//qr-code', () => {
    throw sessionIdMissing();
  });
  router.get('/verification-sessions/:id/qr-code', async (req, res) => {
    const rec = service.liveSession(idParam(req, sessionIdMissing));
    const png = await qrPng(rec.deepLink);
    // No secret in it: any page may load it, and a canvas may read it (decoding the QR in a browser).
    res
      .status(200)
      .set({
        'content-type': 'image/png',
        'access-control-allow-origin': '*',
        'cross-origin-resource-policy': 'cross-origin',
        ...noStore,
      })
      .send(png);
  });
  router.all(
    ['/verification-sessions//qr-code', '/verification-sessions/:id/qr-code'],
    methodNotAllowed(['GET']),
  );

  router.get('/identifications', guard(401), () => {
    throw identificationIdMissing();
  });
  router.get('/identifications/:id', guard(401), (req, res) => {
    res.set(noStore).json(service.getIdentification(idParam(req, identificationIdMissing)));
  });
  router.all('/identifications/:id', methodNotAllowed(['GET']));

  router.post('/identifications//verify', guard(403), () => {
    throw identificationIdMissing();
  });
  router.post('/identifications/:id/verify', guard(403), jsonBody, (req, res) => {
    res.set(noStore).json(service.verify(idParam(req, identificationIdMissing), req.body));
  });
  router.all(['/identifications//verify', '/identifications/:id/verify'], methodNotAllowed(['POST']));

  return router;
}

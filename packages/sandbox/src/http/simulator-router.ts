import { readFileSync } from 'node:fs';
import { Router } from 'express';
import { pickLocale } from '../i18n.js';
import type { SandboxService } from '../service.js';
import { sendHtml, simulatorPage } from './html.js';
import { answerPageError } from './public-router.js';

/** src/ and dist/ both sit one level below the package, beside assets/. */
const assetsDir = new URL('../../assets/', import.meta.url);
const ASSETS: Record<string, { type: string; body: Buffer }> = {
  'simulator.js': {
    type: 'text/javascript; charset=utf-8',
    body: readFileSync(new URL('simulator.js', assetsDir)),
  },
  'sandbox.css': { type: 'text/css; charset=utf-8', body: readFileSync(new URL('sandbox.css', assetsDir)) },
};

/** The mobile-app simulator: one HTML page and its script, no build step. */
export function simulatorRouter(service: SandboxService, base: () => string): Router {
  const router = Router();

  router.get('/', (req, res) => {
    sendHtml(
      res,
      200,
      simulatorPage(base(), pickLocale(req.query.lang, req.headers['accept-language']), undefined),
    );
  });

  router.get('/verification-session/:id', (req, res) => {
    try {
      const rec = service.liveSession(String(req.params.id));
      sendHtml(res, 200, simulatorPage(base(), rec.locale, rec.id));
    } catch (err) {
      answerPageError(req, res, base(), err);
    }
  });

  router.get('/assets/:name', (req, res, next) => {
    const asset = ASSETS[String(req.params.name)];
    if (!asset) {
      next();
      return;
    }
    res.set({ 'content-type': asset.type, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' });
    res.send(asset.body);
  });

  return router;
}

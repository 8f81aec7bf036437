import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import express, { type RequestHandler } from 'express';

/** The standalone module, and the strings files it loads on demand, at their versioned address. */
export const WIDGET_FILE = 'verify-identity.standalone.js';
const YEAR_SECONDS = 365 * 24 * 60 * 60;

/**
 * Serves the widget's standalone build (`@verify-kit/widget/standalone` and its
 * `verify-identity.strings.*.js` next to it) as the widget's README asks of an integrator: at an
 * address that names its content, `/widget/<hash>/…`, cached for a year and `immutable` (a new
 * build is a new address, so a returning visitor never asks again); `/widget/verify-identity.standalone.js`
 * redirects to it. The hash is of the module's bytes: a strings file changes with it (its name is
 * the module's import). Nothing is served while the widget is not built.
 */
export function widgetAssets(): { router: RequestHandler; path: string | undefined } {
  // `src/index.ts` with the `source` condition (pnpm demo), `dist/index.js` otherwise: dist is beside both.
  const dist = fileURLToPath(new URL('../dist/', import.meta.resolve('@verify-kit/widget')));
  const router = express.Router();
  if (!existsSync(`${dist}${WIDGET_FILE}`)) return { router, path: undefined };
  const hash = createHash('sha256')
    .update(readFileSync(`${dist}${WIDGET_FILE}`))
    .digest('hex')
    .slice(0, 12);
  const path = `/widget/${hash}/${WIDGET_FILE}`;
  router.get(`/widget/${WIDGET_FILE}`, (_req, res) => {
    res.set('Cache-Control', 'no-cache').redirect(302, path);
  });
  router.use(
    `/widget/${hash}`,
    (req, res, next) => (/^\/verify-identity\.[\w.]+\.js$/.test(req.path) ? next() : res.status(404).end()),
    express.static(dist, {
      immutable: true,
      maxAge: YEAR_SECONDS * 1000,
      index: false,
      fallthrough: false,
    }),
  );
  return { router, path };
}

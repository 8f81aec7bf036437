import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type Request, type RequestHandler, type Response, Router } from 'express';
import { sendError } from './http-errors.js';

/*
 * The pages built by Vite (dist/public). HTML is served by explicit routes, so a gated page can
 * only be reached through its gate; /assets is static and immutable (hashed names).
 */

export const PAGE_FILES = {
  signIn: 'index.html',
  verify: 'verify.html',
  account: 'account.html',
  playground: 'playground.html',
  notFound: 'not-found.html',
  error: 'error.html',
  unavailable: 'unavailable.html',
} as const;

export type PageName = keyof typeof PAGE_FILES;

export function assertPagesBuilt(publicDir: string): void {
  for (const file of Object.values(PAGE_FILES)) {
    if (!existsSync(path.join(publicDir, file))) {
      throw new Error(
        `the demo's pages are not built (${path.join(publicDir, file)} is missing): run \`pnpm --filter @verify-kit/demo run build\` or \`pnpm demo\``,
      );
    }
  }
}

export function sendPage(publicDir: string, page: PageName, status = 200): RequestHandler {
  return (_req, res) => {
    res.status(status);
    res.setHeader('Cache-Control', 'no-store');
    res.sendFile(path.join(publicDir, PAGE_FILES[page]));
  };
}

export function staticAssets(publicDir: string): Router {
  const router = Router();
  router.use(
    '/assets',
    express.static(path.join(publicDir, 'assets'), {
      immutable: true,
      maxAge: '1y',
      index: false,
      fallthrough: false,
    }),
  );
  return router;
}

/** Pages that need a signed-in person send others to the sign-in page, coming back afterwards. */
export const requireSignedInPage: RequestHandler = (req, res, next) => {
  if (req.session.user !== undefined) return next();
  res.redirect(303, `/?returnTo=${encodeURIComponent(req.originalUrl)}`);
};

/**
 * The gate's answer when the service cannot be asked (its `onUnavailable`): the 503 JSON error
 * body, which humaneGateFailures turns into the demo's own page for a person navigating. The
 * message is fixed: nothing of the upstream's answer reaches the browser.
 */
export function unavailableAsJson(_req: Request, res: Response, error: { code: string }): void {
  sendError(res, 503, error.code, 'The identity verification service cannot be reached right now');
}

/**
 * The gate answers its failures (503: the service unreachable) as JSON, right for fetches. For a
 * person navigating to a gated page the demo shows the same answer as a page in words instead:
 * the status stays, only the body changes.
 */
export function humaneGateFailures(publicDir: string): RequestHandler {
  return (req, res, next) => {
    if (req.accepts(['json', 'html']) !== 'html') return next();
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      if (res.statusCode < 500) return json(body);
      res.json = json;
      res.setHeader('Cache-Control', 'no-store');
      res.sendFile(
        path.join(
          publicDir,
          PAGE_FILES[res.statusCode === 503 || res.statusCode === 504 ? 'unavailable' : 'error'],
        ),
      );
      return res;
    };
    next();
  };
}

import { existsSync } from 'node:fs';
import path from 'node:path';
import { ERROR_CODE, isVerifyKitError } from '@verify-kit/express';
import { sameOriginPath } from '@verify-kit/protocol';
import express, {
  type ErrorRequestHandler,
  type Request,
  type RequestHandler,
  type Response,
  Router,
} from 'express';
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
 * The gate's answer when the service cannot be asked (its `onUnavailable`): for a person
 * navigating, the demo's own page in words; for a fetch, the 503 JSON error body. The message is
 * fixed: nothing of the upstream's answer reaches the browser.
 */
export function unavailablePage(publicDir: string) {
  return (req: Request, res: Response, error: { code: string }): void => {
    res.setHeader('Cache-Control', 'no-store');
    if (req.accepts(['json', 'html']) === 'html') {
      res.status(503).sendFile(path.join(publicDir, PAGE_FILES.unavailable));
      return;
    }
    sendError(res, 503, error.code, 'The identity verification service cannot be reached right now');
  };
}

/**
 * The gate's refusals (requireApproved with onRefuse: 'next') reach here: a person navigating is
 * sent to /verify and comes back afterwards; anything else gets the 403 JSON body.
 */
export const notApprovedHandler: ErrorRequestHandler = (err, req, res, next) => {
  if (!isVerifyKitError(err) || err.code !== ERROR_CODE.NOT_APPROVED || res.headersSent) return next(err);
  res.setHeader('Cache-Control', 'no-store');
  if (req.accepts(['json', 'html']) === 'html') {
    const returnTo = sameOriginPath(req.originalUrl);
    res.redirect(
      303,
      returnTo === undefined ? '/verify' : `/verify?returnTo=${encodeURIComponent(returnTo)}`,
    );
    return;
  }
  const { verification } = err as { verification?: { status: string | null; phase: string | null } };
  res.status(403).json({
    error: { code: err.code, message: err.message },
    status: verification?.status ?? null,
    phase: verification?.phase ?? null,
  });
};

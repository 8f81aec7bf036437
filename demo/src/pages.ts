import { ERROR_CODE, isVerifyKitError } from '@verify-kit/express';
import { sameOriginPath } from '@verify-kit/protocol';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { sendError } from './http-errors.js';
import type { PageName } from './page-files.js';
import type { PageSource } from './page-source.js';

/** Sends one page; the HTML is never cached (a gate's answer may differ at the next visit). */
export async function writePage(
  res: Response,
  pages: PageSource,
  page: PageName,
  status = 200,
): Promise<void> {
  const html = await pages.html(page);
  res.status(status).setHeader('Cache-Control', 'no-store');
  res.type('html').send(html);
}

export function sendPage(pages: PageSource, page: PageName): RequestHandler {
  return (_req, res, next) => {
    writePage(res, pages, page).catch(next);
  };
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
export function unavailablePage(pages: PageSource) {
  return (req: Request, res: Response, error: { code: string }): void => {
    const sendJson = () => {
      res.setHeader('Cache-Control', 'no-store');
      sendError(res, 503, error.code, 'The identity verification service cannot be reached right now');
    };
    if (req.accepts(['json', 'html']) === 'html') writePage(res, pages, 'unavailable', 503).catch(sendJson);
    else sendJson();
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

import { answerSession, SESSION_BODY_LIMIT_BYTES } from '@verify-kit/core/internal/answers/session';
import { isCrossSite, isJsonContentType } from '@verify-kit/core/internal/shared/request-guards';
import type { KitCore } from '@verify-kit/core/internal/wiring/core';
import type { RequestHandler } from 'express';
import { readJson } from '../body.js';
import { headerOf, kitRequestOf } from '../express-request.js';
import { sendAnswer } from '../send-answer.js';

/** POST /session: starts (or resumes) the verification of this account or browser session. */
export function sessionRoute(core: KitCore): RequestHandler {
  return (req, res) => {
    const header = headerOf(req);
    // At once, before any await: the address is gone from the socket once the client resets.
    const answer = answerSession(core, kitRequestOf(req, res), {
      crossSite: isCrossSite(header, Boolean(req.app?.get('trust proxy'))),
      json: isJsonContentType(header),
      readJson: () => readJson(req, res, SESSION_BODY_LIMIT_BYTES),
      mountPath: req.baseUrl,
    });
    answer.then((answered) => sendAnswer(res, answered));
  };
}

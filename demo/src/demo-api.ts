import { type Request, type RequestHandler, Router } from 'express';
import { z } from 'zod';
import type { ActivityLog } from './activity-log.js';
import { accountIdOf } from './bound-session.js';
import { browserIdOf } from './browser-id.js';
import { sendError, sendValidationError } from './http-errors.js';
import { plainIssue } from './plain-issues.js';
import { DEFAULT_SCENARIO, ScenarioSchema } from './scenario.js';
import { sessionCookieName } from './session-cookie.js';
import type { DemoUser } from './session-data.js';

/*
 * The demo's own JSON API under /api/demo: sign in and out, the playground's scenario, the
 * simulator address of the bound session and the activity log. Inputs validated with zod.
 */

const SignInSchema = z.strictObject({
  name: z.string().trim().min(1, 'enter a name').max(100),
  email: z.email('enter an e-mail address like ada@example.com').max(254),
});

export interface BoundSession {
  verificationSessionId: string;
  identificationId: string;
}

export interface DemoApiOptions {
  activity: ActivityLog;
  /** The kit's binding of this browser session, if any. */
  boundSession: (req: Request) => Promise<BoundSession | undefined>;
  /** The kit's forget: unbinds this account's verification. */
  forget: (req: Request) => Promise<void>;
  /** Base URL of the embedded sandbox (its simulator), undefined against a real service. */
  simulatorBaseUrl: string | undefined;
  upstreamKind: 'sandbox' | 'service';
}

export const requireSignedIn: RequestHandler = (req, res, next) => {
  if (req.session.user === undefined) {
    return sendError(res, 401, 'SIGN_IN_REQUIRED', 'please sign in first');
  }
  next();
};

function regenerate(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.regenerate((err) => (err ? reject(err) : resolve())));
}

function destroy(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.destroy((err) => (err ? reject(err) : resolve())));
}

export function demoApi(options: DemoApiOptions): Router {
  const router = Router();

  router.get('/me', (req, res) => {
    res.json({
      user: req.session.user ?? null,
      scenario: req.session.scenario ?? DEFAULT_SCENARIO,
      upstream: { kind: options.upstreamKind, simulator: options.simulatorBaseUrl !== undefined },
    });
  });

  router.post('/sign-in', async (req, res) => {
    const parsed = SignInSchema.safeParse(req.body ?? {}, { error: plainIssue });
    if (!parsed.success) return sendValidationError(res, parsed.error);
    // The account is this browser's (browser-id.ts), not the typed e-mail's: see the demo README.
    const browserId = browserIdOf(req, res);
    // A new session id at sign-in (no fixation); it also drops any earlier binding.
    await regenerate(req);
    const user: DemoUser = { name: parsed.data.name, email: parsed.data.email };
    req.session.user = user;
    req.session.userId = accountIdOf(browserId, user.email);
    res.json({ user });
  });

  router.post('/sign-out', async (req, res) => {
    await destroy(req);
    res.clearCookie(sessionCookieName(req), { path: '/', secure: req.secure });
    res.status(204).end();
  });

  router.get('/scenario', requireSignedIn, (req, res) => {
    res.json({ scenario: req.session.scenario ?? DEFAULT_SCENARIO });
  });

  router.put('/scenario', requireSignedIn, (req, res) => {
    const parsed = ScenarioSchema.safeParse(req.body ?? {}, { error: plainIssue });
    if (!parsed.success) return sendValidationError(res, parsed.error);
    req.session.scenario = parsed.data;
    res.json({ scenario: parsed.data });
  });

  router.get('/simulator-url', requireSignedIn, async (req, res) => {
    if (options.simulatorBaseUrl === undefined) {
      return sendError(
        res,
        404,
        'NO_SIMULATOR',
        'this demo talks to a real service: use the mobile app itself',
      );
    }
    const bound = await options.boundSession(req);
    if (bound === undefined) {
      return sendError(res, 404, 'NO_SESSION', 'no verification has been started yet');
    }
    const url = new URL(
      `app/verification-session/${encodeURIComponent(bound.verificationSessionId)}`,
      withSlash(options.simulatorBaseUrl),
    );
    res.json({ url: url.href });
  });

  // "Forget my verification": the account's binding is gone everywhere; the gate refuses from now on.
  router.post('/forget', requireSignedIn, async (req, res) => {
    await options.forget(req);
    res.status(204).end();
  });

  router.get('/activity', requireSignedIn, async (req, res) => {
    const bound = await options.boundSession(req);
    if (bound === undefined) return res.json({ identificationId: null, entries: [] });
    res.json({
      identificationId: bound.identificationId,
      entries: options.activity.of(bound.identificationId),
    });
  });

  return router;
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

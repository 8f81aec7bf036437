import { sameOriginJson, type VerifyKit } from '@verify-kit/express';
import type { SandboxControlOptions } from '@verify-kit/sandbox/control';
import express, { type Express, type Request, type RequestHandler } from 'express';
import type { Store } from 'express-session';
import type { ActivityLog } from './activity-log.js';
import { type BoundSession, demoApi, requireSignedIn } from './demo-api.js';
import { trackGateSource } from './gate-source.js';
import { jsonErrorHandler, sendError } from './http-errors.js';
import type { PageSource } from './page-source.js';
import { notApprovedHandler, requireSignedInPage, sendPage, unavailablePage, writePage } from './pages.js';
import { reviewerApi } from './reviewer-api.js';
import { securityHeaders } from './security-headers.js';
import { demoSession } from './session-cookie.js';
import { widgetAssets } from './widget-assets.js';
import './session-data.js';

export interface DemoAppOptions {
  kit: VerifyKit;
  activity: ActivityLog;
  boundSession: (req: Request) => Promise<BoundSession | undefined>;
  /** The embedded sandbox (its simulator is framed, its reviewer decides), undefined against a real service. */
  sandbox: SandboxControlOptions | undefined;
  sessionStore: Store | undefined;
  sessionSecret: string;
  /** Express's `trust proxy` setting, for a demo behind an HTTPS reverse proxy. */
  trustProxy: string | undefined;
  pages: PageSource;
}

const EIGHT_HOURS_MS = 8 * 60 * 60 * 1000;

export function createDemoApp(options: DemoAppOptions): Express {
  const { kit, activity, boundSession, pages } = options;
  const sandboxUrl = options.sandbox?.url;
  const app = express();
  app.disable('x-powered-by');
  if (options.trustProxy !== undefined) app.set('trust proxy', parseTrustProxy(options.trustProxy));

  app.use(securityHeaders(sandboxUrl === undefined ? undefined : new URL(sandboxUrl).origin));
  app.use(pages.assets);
  // The widget's standalone module at a versioned address, cached for a year (as its README asks).
  app.use(widgetAssets().router);

  // What a load balancer checks: 503 from the start of a shutdown (SIGTERM) or while Redis is down.
  app.get('/ready', async (_req, res) => {
    const health = await kit.health();
    res
      .status(health.ok ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json(health);
  });

  // An httpOnly SameSite=Lax session cookie; over HTTPS `__Host-` prefixed and Secure (session-cookie.ts).
  app.use(
    demoSession({ secret: options.sessionSecret, store: options.sessionStore, maxAgeMs: EIGHT_HOURS_MS }),
  );

  // The kit: its protocol routes for the widget and its webhook receiver, mounted before any body
  // parser of the demo's own, so the kit's body limit is the one that reads webhook bodies.
  app.use('/identity', signedInExceptWebhook, kit.router);

  // Each gate answer, with how the gate had the status (a read, or the visit's stored decision).
  const recordGate: RequestHandler = (req, res, next) => {
    const gate = trackGateSource(next);
    res.on('finish', () => {
      const at = new Date().toISOString();
      const source = gate.read();
      boundSession(req).then(
        (bound) =>
          bound &&
          activity.add(bound.identificationId, {
            kind: 'gate',
            at,
            path: req.path,
            answer: res.statusCode,
            ...(source === undefined ? {} : { source }),
          }),
        () => {},
      );
    });
  };

  // The demo's JSON API; its gated part answers 403 JSON through the same gate.
  app.use('/api/demo', sameOriginJson(), express.json({ limit: '32kb' }));
  app.get('/api/demo/account', requireSignedIn, recordGate, kit.requireApproved(), (req, res) => {
    res.json({ user: req.session.user, verified: true });
  });
  app.use(
    '/api/demo',
    demoApi({
      activity,
      boundSession,
      forget: (req) => kit.forget(req),
      simulatorBaseUrl: sandboxUrl,
      upstreamKind: sandboxUrl === undefined ? 'service' : 'sandbox',
    }),
  );
  app.use('/api/demo', reviewerApi({ kit, sandbox: options.sandbox }));
  app.use('/api', (_req, res) => sendError(res, 404, 'NOT_FOUND', 'there is no such API endpoint'));

  // Pages.
  app.get('/', sendPage(pages, 'signIn'));
  app.get('/verify', requireSignedInPage, sendPage(pages, 'verify'));
  app.get('/playground', requireSignedInPage, sendPage(pages, 'playground'));
  app.get(
    '/account',
    requireSignedInPage,
    recordGate,
    kit.requireApproved({ onRefuse: 'next', onUnavailable: unavailablePage(pages) }),
    sendPage(pages, 'account'),
  );

  app.use((req, res, next) => {
    if (req.accepts(['json', 'html']) === 'html')
      return void writePage(res, pages, 'notFound', 404).catch(next);
    sendError(res, 404, 'NOT_FOUND', 'there is nothing at this address');
  });
  app.use(notApprovedHandler, jsonErrorHandler);
  return app;
}

/** The widget's routes need a signed-in person (sessionOptions uses the account's e-mail); webhooks come from the service. */
const signedInExceptWebhook: RequestHandler = (req, res, next) => {
  if (req.path === '/webhook') return next();
  requireSignedIn(req, res, next);
};

function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

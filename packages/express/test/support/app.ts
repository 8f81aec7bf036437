import {
  type Browser,
  browsersAt,
  capturingLogger,
  type FakeUpstream,
  type Listening,
  listen,
  onFakeUpstream,
  redTeamKitOptions,
  type StartApp,
} from '@verify-kit/testkit';
import express, { type Express, type Request } from 'express';
import session, { type Store } from 'express-session';
import type { Dispatcher } from 'undici';
import { createVerifyKit, type VerifyKit, type VerifyKitOptions } from '../../src/index.js';

export interface TestApp {
  url: string;
  kit: VerifyKit;
  /** How many times a gated handler ran (the gate called next()). */
  readonly passed: number;
  /** A new browser; `dispatcher` for another source address (e.g. `new Agent({ localAddress })`). */
  browser(dispatcher?: Dispatcher): Browser;
  /** A new browser, signed in as `user` through the app's test sign-in. */
  signedIn(user: string, dispatcher?: Dispatcher): Promise<Browser>;
  close(): Promise<void>;
}

/** The user the app's test sign-in (`POST /login?user=…`) put in the session: the account, as `accountOf`. */
export const signedInUser = (req: Request) => (req.session as unknown as { user?: string } | undefined)?.user;

export interface AppSetup {
  /** The express module the app is built with (express 4 for the smoke test). */
  express?: typeof express;
  /** Mount express.json() before the kit's router (a common integrator mistake for webhooks). */
  jsonFirst?: boolean;
  /** Forget express-session (the integrator's mistake). */
  withoutSession?: boolean;
  /** An already listening server to answer on (its URL was needed before the kit existed). */
  listening?: Listening;
  /** express-session's store (connect-redis for several instances); default its MemoryStore. */
  sessionStore?: Store;
  /** The test's own routes, mounted after the app's and before its gated catch-all. */
  routes?: (app: Express, kit: VerifyKit) => void;
}

type KitOptions = Omit<VerifyKitOptions, 'workflowId'> & { workflowId?: string };
/** The kit's options besides the upstream's address and key. */
export type AppOptions = Omit<KitOptions, 'baseUrl' | 'apiKey'>;

/** The app's own sign-in (`POST /login?user=…`), sign-out, `kit.forget()` and `GET /whoami`. */
function mountSignIn(app: Express, kit: VerifyKit): void {
  app.post('/login', (req, res) => {
    (req.session as unknown as { user: string }).user = String(req.query.user);
    res.json({ ok: true });
  });
  // Signing out and in again regenerates the session, as every app should.
  app.post('/logout', (req, res, next) => {
    req.session.regenerate((error) => (error ? next(error) : res.json({ ok: true })));
  });
  app.post('/forget', async (req, res) => {
    await kit.forget(req, res);
    res.json({ ok: true });
  });
  app.get('/whoami', (req, res) => {
    res.json({ user: signedInUser(req) ?? null });
  });
}

/** An integrator's app as the README shows it, on 127.0.0.1, with the kit under /identity. */
export async function startApp(options: KitOptions, setup: AppSetup = {}): Promise<TestApp> {
  const kit = createVerifyKit({
    workflowId: 'default',
    logger: capturingLogger(),
    pollIntervalMs: 50,
    ...options,
  });
  const ex = setup.express ?? express;
  const app = ex();
  if (setup.jsonFirst) app.use(ex.json());
  if (!setup.withoutSession) {
    app.use(
      session({
        secret: 'test-session-secret',
        resave: false,
        saveUninitialized: false,
        ...(setup.sessionStore === undefined ? {} : { store: setup.sessionStore }),
      }),
    );
  }
  app.use('/identity', kit.router);
  mountSignIn(app, kit);
  let passed = 0;
  app.get('/account', kit.requireApproved({ redirectTo: '/verify' }), (_req, res) => {
    passed++;
    res.json({ account: 'welcome' });
  });
  app.get('/api/data', kit.requireApproved(), (_req, res) => {
    passed++;
    res.json({ data: 'gated' });
  });
  app.get('/custom', async (req, res) => {
    try {
      res.json(await kit.statusOf(req));
    } catch (error) {
      res.status(503).json({ code: (error as { code?: string }).code });
    }
  });
  app.post('/check-country', async (req, res) => {
    try {
      res.json(await kit.verify(req, { type: 'DOCUMENT_COUNTRY', value: String(req.query.country) }));
    } catch (error) {
      res.status(502).json({ code: (error as { code?: string }).code });
    }
  });
  setup.routes?.(app, kit);
  // Everything else is gated too: lets the open-redirect tests request any path.
  app.use(kit.requireApproved({ redirectTo: '/verify' }), (_req, res) => {
    passed++;
    res.json({ catchAll: true });
  });

  const server = setup.listening ?? (await listen());
  server.handle(app);
  return {
    url: server.url,
    kit,
    get passed() {
      return passed;
    },
    ...browsersAt(server.url),
    async close() {
      await kit.close();
      await server.close();
    },
  };
}

/** An app on a fresh fake upstream for the length of `run`; both closed after, whatever happens. */
export function withFakeUpstreamApp(
  options: AppOptions & { apiKey: string },
  run: (app: TestApp, upstream: FakeUpstream) => Promise<void>,
  setup: AppSetup = {},
): Promise<void> {
  return onFakeUpstream((upstream) => startApp({ baseUrl: upstream.url, ...options }, setup), run);
}

/** The third red team's suites' app (testkit's red-team.ts) on Express, its accounts the test sign-in's. */
export const startRedTeamApp: StartApp = (options) => startApp(redTeamKitOptions(options, signedInUser));

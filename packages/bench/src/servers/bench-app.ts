import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createVerifyKit, type VerifyKit } from '@verify-kit/express';
import express, { type RequestHandler } from 'express';
import session from 'express-session';

/** How the kit is configured once the upstream (sandbox or counting proxy) is known. */
export interface KitConfig {
  baseUrl: string;
  apiKey: string;
  webhookSecret?: string;
  pollIntervalMs?: number;
}

export interface BenchApp {
  app: express.Express;
  store: session.MemoryStore;
  /** Mounts a new kit (closing the previous one). */
  configure(config: KitConfig): void;
  /** Moves the kit's clock forward (its caches' time to live). */
  advanceKitClock(ms: number): void;
  close(): Promise<void>;
}

const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>verify-kit bench</title>
<script type="module" src="/assets/verify-identity.standalone.js"></script></head>
<body><verify-identity endpoint="/identity"></verify-identity></body>
</html>`;

const ok: RequestHandler = (_req, res) => {
  res.json({ ok: true });
};

/**
 * The integrator's app as the benchmarks see it: express-session (memory store), the kit at
 * /identity, the standalone widget on a page, and one route three ways: no gate, the default gate
 * (re-read) and the gate with maxAgeMs 5000.
 */
export function createBenchApp({ cookieMaxAgeMs = 30 * 60_000 } = {}): BenchApp {
  const widget = readFileSync(fileURLToPath(import.meta.resolve('@verify-kit/widget/standalone')));
  const store = new session.MemoryStore();
  let kit: VerifyKit | undefined;
  let reread: RequestHandler | undefined;
  let cached: RequestHandler | undefined;
  let kitOffsetMs = 0;

  const notReady: RequestHandler = (_req, res) => {
    res.status(503).json({ error: { code: 'BENCH_KIT_NOT_CONFIGURED', message: 'configure first' } });
  };

  const app = express();
  app.disable('x-powered-by');
  app.get('/', (_req, res) => {
    res.type('html').set('Cache-Control', 'no-store').send(PAGE);
  });
  app.get('/assets/verify-identity.standalone.js', (_req, res) => {
    res.type('text/javascript').send(widget);
  });
  app.use(
    session({
      secret: 'verify-kit bench secret',
      resave: false,
      saveUninitialized: false,
      store,
      cookie: { httpOnly: true, sameSite: 'lax', maxAge: cookieMaxAgeMs },
    }),
  );
  app.use('/identity', (req, res, next) => (kit ? kit.router(req, res, next) : notReady(req, res, next)));
  app.get('/plain', ok);
  app.get('/gated', (req, res, next) => (reread ?? notReady)(req, res, next), ok);
  app.get('/gated-cached', (req, res, next) => (cached ?? notReady)(req, res, next), ok);

  return {
    app,
    store,
    configure(config) {
      void kit?.close();
      kit = createVerifyKit({
        baseUrl: config.baseUrl,
        apiKey: config.apiKey,
        workflowId: 'default',
        // Every simulated user comes from 127.0.0.1: a per-address limit would refuse the load itself.
        sessionLimit: false,
        ...(config.webhookSecret ? { webhookSecret: config.webhookSecret } : {}),
        ...(config.pollIntervalMs ? { pollIntervalMs: config.pollIntervalMs } : {}),
        now: () => Date.now() + kitOffsetMs,
      });
      reread = kit.requireApproved();
      cached = kit.requireApproved({ maxAgeMs: 5000 });
    },
    advanceKitClock(ms) {
      kitOffsetMs += ms;
    },
    async close() {
      await kit?.close();
    },
  };
}

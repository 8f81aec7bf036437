import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type BindingStore, createVerifyKit } from '@verify-kit/express';
import { createRedisBindingStore } from '@verify-kit/express/redis';
import express, { type RequestHandler } from 'express';
import session from 'express-session';
import { Pool } from 'undici';

/** Where a verification is bound: the browser session (anonymous), or the signed-in account in a store. */
export type BindingMode = 'session' | 'memory' | 'redis';

export interface AppConfig {
  /** The kit's upstream (the sandbox, or a proxy in front of it). */
  upstreamUrl: string;
  apiKey: string;
  webhookSecret?: string;
  binding?: BindingMode;
  redisUrl?: string;
  /** express-session cookie and store lifetime; default 30 minutes. */
  sessionMaxAgeMs?: number;
  pollIntervalMs?: number;
  /** The kit's bound on upstream reads per identification per second (its default: 5). */
  maxReadsPerSecond?: number;
}

declare module 'express-session' {
  interface SessionData {
    userId?: string;
    /** The identification /limit reads (set by POST /bench/limit?id=). */
    limitId?: string;
  }
}

const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>verify-kit bench</title>
<script type="module" src="/assets/verify-identity.standalone.js"></script></head>
<body><verify-identity endpoint="/identity"></verify-identity></body>
</html>`;

/**
 * The integrator's app every benchmark and load run uses: express-session (memory store), the kit
 * at /identity, the standalone widget on `/`, and one handler behind different fronts:
 * - `/plain`: the session middleware only;
 * - `/limit`: the physical minimum of a gate: the session middleware and one bare undici GET of
 *   the session's identification at the upstream (the kit's own work removed);
 * - `/gated`, `/gated-cached` (maxAgeMs 5000), `/account` (navigations redirected to /verify).
 */
export function createBenchApp(config: AppConfig) {
  const widget = readFileSync(fileURLToPath(import.meta.resolve('@verify-kit/widget/standalone')));
  const store = new session.MemoryStore();
  const clock = { offsetMs: 0 };
  const kit = createKit(config, () => Date.now() + clock.offsetMs);
  const upstream = new Pool(new URL(config.upstreamUrl).origin);
  let granted = 0;
  const ok: RequestHandler = (_req, res) => {
    granted++;
    res.json({ ok: true });
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
      secret: randomBytes(32).toString('hex'),
      resave: false,
      saveUninitialized: false,
      store,
      cookie: { httpOnly: true, sameSite: 'lax', maxAge: config.sessionMaxAgeMs ?? 30 * 60_000 },
    }),
  );
  app.use('/identity', kit.router);
  app.post('/sign-in', (req, res, next) => {
    req.session.regenerate((error) => {
      if (error) return next(error);
      req.session.userId = randomUUID();
      res.status(201).json({ userId: req.session.userId });
    });
  });
  app.post('/bench/limit', (req, res) => {
    req.session.limitId = String(req.query.id);
    res.status(204).end();
  });
  app.get('/plain', ok);
  app.get('/limit', async (req, res, next) => {
    try {
      if (await approvedUpstream(upstream, config.apiKey, req.session.limitId)) ok(req, res, next);
      else res.status(403).end();
    } catch (error) {
      next(error);
    }
  });
  app.get('/gated', kit.requireApproved(), ok);
  app.get('/gated-cached', kit.requireApproved({ maxAgeMs: 5000 }), ok);
  app.get('/account', kit.requireApproved({ redirectTo: '/verify' }), ok);
  app.get('/verify', (_req, res) => {
    res.type('html').send(PAGE);
  });

  return {
    app,
    /** Sessions in the store; counting drops the expired ones. */
    sessionCount: () =>
      new Promise<number>((resolve, reject) => {
        store.length((error, length) => (error ? reject(error) : resolve(length ?? 0)));
      }),
    /** How many times a gated handler ran. */
    granted: () => granted,
    /** Moves the kit's clock (its caches' time to live) forward. */
    advanceClock(ms: number) {
      clock.offsetMs += ms;
    },
    async close() {
      await Promise.all([kit.close(), upstream.close()]);
    },
  };
}

function createKit(config: AppConfig, now: () => number) {
  const binding = config.binding ?? 'session';
  return createVerifyKit({
    baseUrl: config.upstreamUrl,
    apiKey: config.apiKey,
    workflowId: 'default',
    // Every simulated user comes from 127.0.0.1: a per-address limit would refuse the load itself.
    sessionLimit: false,
    ...(binding === 'session' ? {} : { accountOf: (req) => req.session.userId }),
    ...(binding === 'redis' ? { bindingStore: redisStore(config.redisUrl) } : {}),
    ...(config.webhookSecret ? { webhookSecret: config.webhookSecret } : {}),
    ...(config.pollIntervalMs ? { pollIntervalMs: config.pollIntervalMs } : {}),
    ...(config.maxReadsPerSecond ? { maxReadsPerSecond: config.maxReadsPerSecond } : {}),
    now,
  });
}

/** The physical minimum of a gate's upstream work: one GET of the identification, its status checked. */
async function approvedUpstream(upstream: Pool, apiKey: string, id: string | undefined): Promise<boolean> {
  const answer = await upstream.request({
    method: 'GET',
    path: `/api/v1/identifications/${id}`,
    headers: { 'x-api-key': apiKey },
  });
  return ((await answer.body.json()) as { status?: string }).status === 'APPROVED';
}

function redisStore(url: string | undefined): BindingStore {
  if (url === undefined) throw new Error('binding "redis" needs redisUrl');
  return createRedisBindingStore({ url });
}

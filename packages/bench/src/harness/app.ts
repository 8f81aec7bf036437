import { randomBytes, randomUUID } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { createVerifyKit, type StatusChangeEvent } from '@verify-kit/express';
import {
  createRedisBindingStore,
  createRedisStatusBus,
  type RedisStatusBus,
} from '@verify-kit/express/redis';
import express, { type Request, type RequestHandler } from 'express';
import session, { type Store } from 'express-session';
import { createClient } from 'redis';
import { Pool } from 'undici';
import { PatientRedisStore } from './patient-sessions.js';
import { mountQrLimit, widgetPage } from './qr-limit.js';

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
  /**
   * The service's limit the kit's read budget keeps under (`upstreamReadsPerSecond`, with the kit's
   * own per-client and per-address shares). Default: none a load from one address would meet (the
   * load's users all come from 127.0.0.1, the sandbox has no limit); the budget still counts.
   */
  upstreamReadsPerSecond?: number;
  /**
   * Several instances as one site behind a load balancer (the chaos run): express-session in Redis
   * (connect-redis) under one shared secret, the Redis status bus and replay store, the creation
   * limits shared through Redis (`sessionLimit: { redis }`), and `trust proxy` 1 (the balancer's
   * X-Forwarded-For). Needs redisUrl.
   */
  shared?: { sessionSecret: string };
  /** Each onStatusChange event, appended as a JSON line (it survives a kill -9 of the process). */
  eventsFile?: string;
}

declare module 'express-session' {
  interface SessionData {
    userId?: string;
    /** The identification /limit reads (set by POST /bench/limit?id=). */
    limitId?: string;
  }
}

/**
 * The integrator's app every benchmark and load run uses: express-session (memory store), the kit
 * at /identity, the standalone widget on `/` (and with auto-start on `/auto`, beside its physical
 * limit, qr-limit.ts), and one handler behind different fronts:
 * - `/plain`: the session middleware only;
 * - `/limit`: the physical minimum of a gate: the session middleware and one bare undici GET of
 *   the session's identification at the upstream (the kit's own work removed);
 * - `/gated`, `/gated-cached` (maxAgeMs 5000): the gate in strict mode (freshness 'every-request');
 * - `/visit`, `/account` (navigations redirected to /verify): the gate as the kit sets it by default
 *   (a read per visit, the stored decision inside it);
 * - `/plain-redis` (binding 'redis'): the session middleware and one Redis GET (node-redis).
 */
export function createBenchApp(config: AppConfig) {
  const widget = readFileSync(fileURLToPath(import.meta.resolve('@verify-kit/widget/standalone')));
  const shared = config.shared === undefined ? undefined : sharedParts(config.redisUrl);
  const memoryStore = new session.MemoryStore();
  const store: Store = shared?.sessions ?? memoryStore;
  const clock = { offsetMs: 0 };
  // /plain-redis's client: the node-redis kind the kit's Redis binding store uses.
  const plainRedis = config.binding === 'redis' ? redisClient(config.redisUrl, 'binding "redis"') : undefined;
  const kit = createKit(config, () => Date.now() + clock.offsetMs, shared);
  const upstream = new Pool(new URL(config.upstreamUrl).origin);
  const ok: RequestHandler = (_req, res) => {
    res.json({ ok: true });
  };
  /** `ok` once `work` resolves (403 when it says false); its failure goes to Express. */
  const okAfter =
    (work: (req: Request) => Promise<unknown>): RequestHandler =>
    (req, res, next) => {
      work(req).then((pass) => (pass === false ? res.status(403).end() : ok(req, res, next)), next);
    };

  const app = express();
  app.disable('x-powered-by');
  // Behind one balancer: req.ip is the address it saw (the last X-Forwarded-For), whatever the client sent.
  if (shared !== undefined) app.set('trust proxy', 1);
  app.get(['/', '/verify'], (_req, res) => {
    res.type('html').set('Cache-Control', 'no-store').send(widgetPage(false));
  });
  // Compressed, as an integrator's server or CDN sends it: on a slow network the bytes are time.
  const widgetGzip = gzipSync(widget, { level: 9 });
  app.get('/assets/verify-identity.standalone.js', (req, res) => {
    res.type('text/javascript').set('Vary', 'Accept-Encoding');
    if (req.acceptsEncodings('gzip') === 'gzip') res.set('Content-Encoding', 'gzip').send(widgetGzip);
    else res.send(widget);
  });
  mountQrLimit(app, widgetGzip.length);
  // What the load balancer checks (the express README's readiness route).
  app.get('/ready', async (_req, res) => {
    const health = await kit.health();
    res.status(health.ok ? 200 : 503).json(health);
  });
  app.use(
    session({
      secret: config.shared?.sessionSecret ?? randomBytes(32).toString('hex'),
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
      // ?user= signs in again as an account that verified before (pnpm load --flood); else a new one.
      req.session.userId = typeof req.query.user === 'string' ? req.query.user : randomUUID();
      res.status(201).json({ userId: req.session.userId });
    });
  });
  app.post('/bench/limit', (req, res) => {
    req.session.limitId = String(req.query.id);
    res.status(204).end();
  });
  app.get('/plain', ok);
  app.get(
    '/limit',
    okAfter((req) => approvedUpstream(upstream, config.apiKey, req.session.limitId)),
  );
  // Strict mode (a read per request), as these figures have always measured the gate.
  app.get('/gated', kit.requireApproved({ freshness: 'every-request' }), ok);
  app.get('/gated-cached', kit.requireApproved({ freshness: 'every-request', maxAgeMs: 5000 }), ok);
  // The kit's default: a read per visit, the stored decision inside it.
  app.get('/visit', kit.requireApproved(), ok);
  if (plainRedis !== undefined) {
    app.get(
      '/plain-redis',
      okAfter((req) => plainRedis.get(`bench-plain:${req.session.userId ?? req.sessionID}`)),
    );
  }
  app.get('/account', kit.requireApproved({ redirectTo: '/verify' }), ok);

  return {
    app,
    /** Sessions in the store; counting drops the expired ones. */
    sessionCount: () =>
      new Promise<number>((resolve, reject) => {
        memoryStore.length((error, length) => (error ? reject(error) : resolve(length ?? 0)));
      }),
    /** Moves the kit's clock (its caches' time to live) forward. */
    advanceClock(ms: number) {
      clock.offsetMs += ms;
    },
    /** A rolling deploy's stop (`server`: the kit drains it, kit.shutdown), or kit.close(); then the rest closes. */
    async close(drain?: { server: Server; drainMs: number }) {
      await (drain ? kit.shutdown(drain) : kit.close());
      await Promise.all([upstream.close(), shared?.close()]);
      if (plainRedis?.isOpen) await plainRedis.close();
    },
  };
}

/** The pieces several instances share through Redis: sessions (connect-redis) and the status bus. */
function sharedParts(url: string | undefined) {
  const client = redisClient(url, 'shared instances');
  const bus = createRedisStatusBus({ url: client.options.url! });
  return {
    sessions: new PatientRedisStore({ client, prefix: 'bench-sess:' }, client),
    /** connect-redis's client, for the shared creation limits too (as the express README shows). */
    client,
    bus,
    async close() {
      await bus.close();
      if (client.isOpen) await client.close();
    },
  };
}

/**
 * The kit's options every bench app shares (this one, and shell-apps.ts's on the Fetch door): the
 * upstream, and no limit a load from one address would meet: no creation limit, and a read budget
 * out of reach (it still counts) unless the run gives the service's limit (`upstreamReadsPerSecond`,
 * with the kit's own per-client and per-address shares).
 */
export function benchKitOptions(config: AppConfig) {
  const { upstreamReadsPerSecond, webhookSecret, pollIntervalMs, maxReadsPerSecond } = config;
  return {
    baseUrl: config.upstreamUrl,
    apiKey: config.apiKey,
    workflowId: 'default',
    sessionLimit: false as const,
    ...(upstreamReadsPerSecond === undefined
      ? { upstreamReadsPerSecond: 100_000, readLimit: { perClient: 10_000, perIp: 1_000_000 } }
      : { upstreamReadsPerSecond }),
    ...(webhookSecret ? { webhookSecret } : {}),
    ...(pollIntervalMs ? { pollIntervalMs } : {}),
    ...(maxReadsPerSecond ? { maxReadsPerSecond } : {}),
  };
}

function createKit(config: AppConfig, now: () => number, shared: ReturnType<typeof sharedParts> | undefined) {
  const { binding = 'session', eventsFile } = config;
  const bus: RedisStatusBus | undefined = shared?.bus;
  /** Each event as a JSON line, appended: it survives a kill -9 of the process. */
  const record = (event: StatusChangeEvent) =>
    appendFileSync(
      eventsFile!,
      `${JSON.stringify({ ...event, pid: process.pid, recordedAt: Date.now() })}\n`,
    );
  return createVerifyKit({
    ...benchKitOptions(config),
    // Shared: the kit's default limits, counted in Redis for every instance (each person of the
    // chaos run comes from its own address). Otherwise every simulated user comes from 127.0.0.1,
    // and a per-address limit would refuse the load itself.
    sessionLimit: shared === undefined ? false : { redis: shared.client },
    ...(binding === 'session' ? {} : { accountOf: (req) => req.session.userId }),
    ...(binding === 'redis' ? { bindingStore: createRedisBindingStore({ url: config.redisUrl! }) } : {}),
    ...(bus === undefined ? {} : { statusBus: bus, replayStore: bus.replayStore }),
    ...(eventsFile === undefined ? {} : { onStatusChange: record }),
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

/** A node-redis client (the kind the kit's Redis stores use), connecting; `what` needs `url`. */
function redisClient(url: string | undefined, what: string) {
  if (url === undefined) throw new Error(`${what}: redisUrl is missing`);
  const client = createClient({ url });
  // node-redis reconnects by itself (a Redis restart); without a listener an error would kill the process.
  client.on('error', () => {});
  client.connect().catch(() => {});
  return client;
}

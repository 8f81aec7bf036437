import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createVerifyKit, type Logger, type VerifyKit } from '@verify-kit/express';
import express from 'express';
import session from 'express-session';

export interface KitAppOptions {
  /** Where the kit sends its upstream calls (the sandbox, or a proxy in front of it). */
  upstreamUrl: string;
  apiKey: string;
  webhookSecret?: string;
  /** express-session cookie and store lifetime; default 30 minutes. */
  sessionMaxAgeMs?: number;
  timeoutMs?: number;
  retries?: number;
  pollIntervalMs?: number;
  now?: () => number;
  logger?: Logger;
}

export interface KitApp {
  url: string;
  port: number;
  kit: VerifyKit;
  /** express-session's store (in memory). */
  store: session.MemoryStore;
  /** Sessions the express-session MemoryStore holds (expired ones are dropped by the count). */
  sessionCount(): Promise<number>;
  /** How many times the gated handler ran, i.e. the gate called next(). */
  readonly granted: number;
  close(): Promise<void>;
}

/** The path of the gated route. */
export const GATED_PATH = '/account';

/**
 * An integrator's app as the express README shows it: express-session (MemoryStore), the kit's
 * router under /identity and one gated route, on 127.0.0.1 and a random port.
 */
export async function startKitApp(options: KitAppOptions): Promise<KitApp> {
  const kit = createVerifyKit({
    baseUrl: options.upstreamUrl,
    apiKey: options.apiKey,
    workflowId: 'default',
    // Every simulated user comes from 127.0.0.1: a per-address limit would refuse the load itself.
    sessionLimit: false,
    ...(options.webhookSecret === undefined ? {} : { webhookSecret: options.webhookSecret }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.retries === undefined ? {} : { retries: options.retries }),
    ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });
  const store = new session.MemoryStore();
  const app = express();
  app.disable('x-powered-by');
  app.use(
    session({
      secret: randomBytes(32).toString('hex'),
      resave: false,
      saveUninitialized: false,
      store,
      cookie: { httpOnly: true, sameSite: 'lax', maxAge: options.sessionMaxAgeMs ?? 30 * 60_000 },
    }),
  );
  app.use('/identity', kit.router);
  let granted = 0;
  app.get(GATED_PATH, kit.requireApproved({ redirectTo: '/verify' }), (_req, res) => {
    granted++;
    res.json({ account: 'welcome' });
  });
  app.get('/verify', (_req, res) => {
    res.type('html').send('<!doctype html><title>Verify</title><verify-identity endpoint="/identity">');
  });

  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(0, '127.0.0.1', (error?: Error) =>
      error ? reject(error) : resolve(listening),
    );
  });
  // As behind a load balancer: idle keep-alive sockets live longer than any client keeps them, so a
  // client never reuses a socket the server is closing (which would be an ECONNRESET, not the kit's).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    kit,
    store,
    get granted() {
      return granted;
    },
    sessionCount: () =>
      new Promise((resolve, reject) => {
        store.length((error, length) => (error ? reject(error) : resolve(length ?? 0)));
      }),
    async close() {
      await kit.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { ActivityLog } from './activity-log.js';
import { createDemoApp } from './app.js';
import { boundSessionOf } from './bound-session.js';
import { createDemoKit } from './demo-kit.js';
import { demoMetrics } from './metrics.js';
import { observeUpstreamReads } from './observe-upstream.js';
import { builtPages } from './page-source.js';
import { createSessionStore } from './session-store.js';
import {
  type RemoteUpstreamOptions,
  remoteUpstream,
  type SandboxHandle,
  startEmbeddedSandbox,
  type Upstream,
} from './upstream.js';
import { vitePages } from './vite-pages.js';

export interface DemoOptions {
  /** Default 3000; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** A real service instead of the embedded sandbox. */
  upstream?: RemoteUpstreamOptions;
  /** The embedded sandbox's automatic review delay. */
  reviewDelayMs?: number;
  workflowId?: string;
  /** Signs the session cookie; a random one per start when absent (sessions then end with the process). */
  sessionSecret?: string;
  /** connect-redis instead of the MemoryStore. */
  redisUrl?: string;
  /** Express's `trust proxy`, e.g. `1` behind one HTTPS reverse proxy. */
  trustProxy?: string;
  /** Development: the pages served from their sources by Vite's dev server, nothing built. */
  dev?: boolean;
  /** Where the built pages are (when not `dev`); default demo/dist/public. */
  publicDir?: string;
  /** On SIGTERM (cli.ts): how long GET /ready answers 503 while the demo still serves. Default 5000. */
  drainMs?: number;
  /** The kit's OpenTelemetry series at `GET /metrics`, for Prometheus (`--metrics`). */
  metrics?: boolean;
}

export interface RunningDemo {
  /** The one address a person opens. */
  url: string;
  port: number;
  upstream: { kind: 'sandbox' | 'service'; baseUrl: string };
  /** The embedded sandbox (tests drive its control API), undefined against a real service. */
  sandbox: SandboxHandle | undefined;
  sessionStore: string;
  close(): Promise<void>;
  /**
   * A rolling deploy's stop (SIGTERM): not ready at once (`GET /ready` answers 503), serving on for
   * `drainMs` with `Connection: close`, open long-polls answered, then everything closed.
   */
  shutdown(drainMs: number): Promise<void>;
}

const demoRoot = new URL(import.meta.url.includes('/dist/server/') ? '../../' : '../', import.meta.url);
export const DEFAULT_PUBLIC_DIR = fileURLToPath(new URL('dist/public', demoRoot));

export async function startDemo(options: DemoOptions = {}): Promise<RunningDemo> {
  // Checked before anything starts: a missing build is the most likely mistake.
  const built = options.dev ? undefined : builtPages(options.publicDir ?? DEFAULT_PUBLIC_DIR);
  const host = options.host ?? '127.0.0.1';
  const cleanups: Array<() => Promise<void> | void> = [];
  const cleanup = async () => {
    for (const fn of cleanups.reverse()) await fn();
  };

  // Listen first: the embedded sandbox needs the demo's webhook address when it starts.
  const { server, port, close } = await listen(options.port ?? 3000, host);
  const url = `http://${urlHost(host)}:${port}`;
  cleanups.push(close);

  try {
    const pages = built ?? vitePages(server, demoRoot);
    cleanups.push(() => pages.close());

    let upstream: Upstream;
    if (options.upstream !== undefined) {
      upstream = remoteUpstream(options.upstream);
    } else {
      upstream = await startEmbeddedSandbox({
        host: '127.0.0.1',
        webhookUrl: `http://${bracketed(loopbackOf(host))}:${port}/identity/webhook`,
        ...(options.reviewDelayMs === undefined ? {} : { reviewDelayMs: options.reviewDelayMs }),
      });
    }
    cleanups.push(() => upstream.close());

    const activity = new ActivityLog();
    cleanups.push(observeUpstreamReads(upstream.baseUrl, activity));

    const metrics = options.metrics ? demoMetrics() : undefined;
    if (metrics !== undefined) cleanups.push(metrics.close);
    const { kit, bindingStore } = await createDemoKit(options, upstream, activity, cleanups, metrics);

    const store = await createSessionStore(options.redisUrl);
    cleanups.push(() => store.close());

    const app = createDemoApp({
      kit,
      activity,
      boundSession: boundSessionOf(bindingStore),
      sandbox:
        upstream.sandbox === undefined
          ? undefined
          : { url: upstream.sandbox.url, apiKey: upstream.sandbox.apiKey },
      sessionStore: store.store,
      sessionSecret: options.sessionSecret ?? randomBytes(32).toString('base64url'),
      trustProxy: options.trustProxy,
      pages,
    });
    server.on('request', (req, res) => {
      if (metrics !== undefined && req.method === 'GET' && req.url === '/metrics') metrics.serve(req, res);
      else app(req, res);
    });

    return {
      url,
      port,
      upstream: { kind: upstream.sandbox === undefined ? 'service' : 'sandbox', baseUrl: upstream.baseUrl },
      sandbox: upstream.sandbox,
      sessionStore: store.description,
      close: cleanup,
      async shutdown(drainMs) {
        await kit.shutdown({ server, drainMs });
        await cleanup();
      },
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/** The demo's HTTP server, listening; slow clients (a header drip) are cut off, as the kit's README recommends to integrators. */
async function listen(port: number, host: string) {
  const server = http.createServer({
    headersTimeout: 10_000,
    requestTimeout: 30_000,
    connectionsCheckingInterval: 1_000,
  });
  server.keepAliveTimeout = 5_000;
  server.listen(port, host);
  await once(server, 'listening');
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { server, port: (server.address() as AddressInfo).port, close };
}

/** The address to print: `localhost` for the loopback and wildcard addresses, which browsers know best. */
function urlHost(host: string): string {
  if (host === '127.0.0.1' || host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

function bracketed(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

function loopbackOf(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '::1';
  return host;
}

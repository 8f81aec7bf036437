import type { AddressInfo } from 'node:net';
import { Clock } from './clock.js';
import { createApp } from './http/app.js';
import { resolveOptions, type Sandbox, type SandboxOptions } from './options.js';
import { RateLimiter } from './rate-limit.js';
import { SandboxService } from './service.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';

const SWEEP_INTERVAL_MS = 1000;
/** Slow clients may not hold a socket forever. */
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;

/** Starts the sandbox on `host:port` (default 127.0.0.1 and a random port). */
export async function startSandbox(options?: SandboxOptions): Promise<Sandbox> {
  const config = resolveOptions(options);
  const clock = new Clock(config.now);
  const webhooks = config.webhook ? new WebhookDispatcher(config.webhook) : undefined;
  const service = new SandboxService(config, clock, webhooks);
  const limiter = config.rateLimit
    ? new RateLimiter(config.rateLimit.requests, config.rateLimit.windowMs, () => clock.now())
    : undefined;

  let basePath = '';
  const advanceClock = (ms: number) => {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advanceClock(ms) takes a finite number >= 0');
    clock.advance(ms);
    service.sweep();
  };
  const app = createApp({
    service,
    webhooks,
    clock,
    limiter,
    apiKey: config.apiKey,
    advanceClock,
    basePath: () => basePath,
  });

  const server = await new Promise<import('node:http').Server>((resolve, reject) => {
    const s = app.listen(config.port, config.host, (err?: Error) => (err ? reject(err) : resolve(s)));
    s.once('error', reject);
  });
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;

  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  const baseUrl = config.baseUrl ?? url;
  basePath = new URL(baseUrl).pathname.replace(/\/+$/, '');
  service.setBaseUrl(baseUrl);

  const sweeper = setInterval(() => service.sweep(), SWEEP_INTERVAL_MS);
  sweeper.unref();

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      clearInterval(sweeper);
      service.close();
      await webhooks?.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    })();
    return closing;
  };

  return { url, baseUrl, apiKey: config.apiKey, port, advanceClock, now: () => clock.now(), close };
}

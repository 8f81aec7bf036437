import { generateWebhookSecret } from '@verify-kit/client';
import { type Sandbox, type SandboxOptions, startSandbox } from '@verify-kit/sandbox';
import {
  type Browser,
  deliverWebhook,
  expectKeyNeverLeaked,
  type FakeUpstream,
  type Listening,
  listen,
  type RedisServer,
  startFakeUpstream,
  startRedisServer,
} from '@verify-kit/testkit';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { SessionResponseBody } from '../../src/index.js';
import { type AppOptions, type AppSetup, startApp, type TestApp } from './app.js';
import { openByCode } from './sandbox.js';

export { approveInSandbox, startVerificationOn, verifyIn } from '@verify-kit/testkit';

/**
 * A real sandbox and an app on it for the tests of one file: started before them, closed after,
 * and every response and log line of the run checked for the key. Read `sandbox`/`app` in tests.
 */
export function useSandboxApp(
  apiKey: string,
  app: AppOptions = {},
  sandboxOptions: SandboxOptions = {},
  setup: AppSetup = {},
) {
  const context = {} as { sandbox: Sandbox; app: TestApp };
  beforeAll(async () => {
    context.sandbox = await startSandbox({ apiKey, reviewDelayMs: 0, ...sandboxOptions });
    context.app = await startApp({ baseUrl: context.sandbox.url, apiKey, ...app }, setup);
  });
  afterAll(async () => {
    await context.app?.close();
    await context.sandbox?.close();
    expectKeyNeverLeaked(apiKey);
  });
  return context;
}

/** A real redis-server and sandbox for the tests of one file (`redis` may be replaced, e.g. restarted). */
export function useRedisAndSandbox(apiKey: string) {
  const context = {} as { redis: RedisServer; sandbox: Sandbox };
  beforeAll(async () => {
    context.redis = await startRedisServer();
    context.sandbox = await startSandbox({ apiKey, reviewDelayMs: 0 });
  });
  afterAll(async () => {
    await context.sandbox?.close();
    await context.redis?.stop();
    expectKeyNeverLeaked(apiKey);
  });
  return context;
}

/** A real redis-server and the fake upstream for the tests of one file (`redis` may be replaced, e.g. restarted). */
export function useRedisAndFakeUpstream(apiKey: string) {
  const context = {} as { redis: RedisServer; upstream: FakeUpstream };
  beforeAll(async () => {
    context.redis = await startRedisServer();
    context.upstream = await startFakeUpstream();
  });
  afterAll(async () => {
    await context.upstream?.close();
    await context.redis?.stop();
    expectKeyNeverLeaked(apiKey);
  });
  return context;
}

/** The same on the misbehaving fake upstream, healthy again after each test. */
export function useFakeUpstreamApp(apiKey: string, app: AppOptions = {}) {
  const context = {} as { upstream: FakeUpstream; app: TestApp };
  beforeAll(async () => {
    context.upstream = await startFakeUpstream();
    context.app = await startApp({ baseUrl: context.upstream.url, apiKey, ...app });
  });
  afterEach(() => {
    if (context.upstream) context.upstream.mode = 'healthy';
  });
  afterAll(async () => {
    await context.app?.close();
    await context.upstream?.close();
    expectKeyNeverLeaked(apiKey);
  });
  return context;
}

/** `POST /session` as the widget sends it; the answer with the identification the sandbox made. */
export async function startVerificationIn(sandbox: Sandbox, browser: Browser) {
  const res = await browser.post<SessionResponseBody>('/identity/session');
  expect(res.status).toBe(201);
  const { identificationId } = await openByCode(sandbox, res.json.sessionCode);
  return { ...res.json, identificationId };
}

/**
 * The fake upstream's identification turns `status`, and the service's signed webhook
 * (`identification.<status>`) tells the kit so.
 */
export async function changeStatusOn(
  upstream: FakeUpstream,
  app: TestApp,
  change: { secret: string; identificationId: string; status: string },
): Promise<void> {
  const { secret, identificationId, status } = change;
  upstream.statuses.set(identificationId, status);
  const type = `identification.${status.toLowerCase()}`;
  expect((await deliverWebhook(app.browser(), { secret, identificationId, type, status })).status).toBe(204);
}

/**
 * A sandbox that signs webhooks to an app on it (the app listens before the kit exists, so the
 * sandbox knows where to send); polling is slow, so only a webhook wakes a long-poll quickly.
 */
export async function startWebhookedApp(apiKey: string, setup: AppSetup = {}) {
  const secret = generateWebhookSecret();
  const { sandbox, listening } = await startWebhookingSandbox(apiKey, secret);
  const app = await startApp(
    { baseUrl: sandbox.url, apiKey, webhookSecret: secret, pollIntervalMs: 60_000 },
    { ...setup, listening },
  );
  const close = async () => {
    await app.close();
    await sandbox.close();
  };
  return { sandbox, app, close };
}

/**
 * A sandbox that signs its webhooks with `secret` and sends them to an address already listening,
 * where an app answers once started (`setup.listening`).
 */
export async function startWebhookingSandbox(
  apiKey: string,
  secret: string,
): Promise<{ sandbox: Sandbox; listening: Listening }> {
  const listening = await listen();
  const sandbox = await startSandbox({
    apiKey,
    reviewDelayMs: 0,
    webhookUrl: `${listening.url}/identity/webhook`,
    webhookSecret: secret,
  });
  return { sandbox, listening };
}

/** Unhandled rejections and uncaught exceptions while the tests of this file (or describe) run. */
export function collectUnhandled(): unknown[] {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  beforeAll(() => {
    process.on('unhandledRejection', onUnhandled);
    process.on('uncaughtException', onUnhandled);
  });
  afterAll(() => {
    process.off('unhandledRejection', onUnhandled);
    process.off('uncaughtException', onUnhandled);
  });
  return unhandled;
}

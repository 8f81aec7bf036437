import { generateWebhookSecret } from '@verify-kit/client';
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { Browser, type FaultProxy, fromAddress, startFaultProxy } from '@verify-kit/testkit';
import { beforeAll } from 'vitest';
import { APPS, type AppInstance, type AppName, type Runtime } from './app-instance.js';
import { closeAfterAll } from './close-after-all.js';
import { SLOW_SERVICE_MS } from './protocol-tests.js';
import { type RunningApp, startApp } from './start-app.js';

const API_KEY = 'sk_test_runtime_tests_4b1e9c';
const COOKIE_SECRET = 'runtime-tests-cookie-secret-0123456789abcdef';
/** Starting a runtime cold takes about a second; this bounds a broken start, never a good one. */
const START_TIMEOUT_MS = 60_000;

/** One app on the runtime under test, what it talks to, and browsers to drive it. */
export interface Target {
  readonly runtime: Runtime['name'];
  readonly app: AppName;
  readonly instance: AppInstance;
  /** The service the app reads, through `proxy`; the test talks to it directly. */
  readonly sandbox: Sandbox;
  /** Between the app and the sandbox: `setRates({ server_error: 1 })` takes the service down. */
  readonly proxy: FaultProxy;
  readonly webhookSecret: string;
  /** A new browser (its own cookies) from a loopback address no other browser of the file used. */
  browser(): Browser;
  /** A new browser from `address` (any of 127.0.0.0/8 reaches 127.0.0.1). */
  browserFrom(address: string): Browser;
  /** A loopback address no browser used yet. */
  freshAddress(): string;
  /** The service delivering its webhooks (127.0.0.1). */
  service(): Browser;
}

let addresses = 0;
/** 127.0.1.1, 127.0.1.2, …: each browser its own address, so the per-address limit counts it alone. */
function nextAddress(): string {
  const n = addresses++;
  return `127.0.${1 + Math.floor(n / 250)}.${1 + (n % 250)}`;
}

/**
 * Before the file's tests: a sandbox, and each app of the runtime's folder (core's Fetch door, the
 * Hono shell) started on it, side by side, each behind its own proxy to the sandbox. After them,
 * whatever happened: every app process killed, the proxies and the sandbox closed.
 */
export function useRuntime(runtime: Runtime): Record<AppName, Target> {
  const targets = {} as Record<AppName, Target>;
  const closeLater = closeAfterAll();

  beforeAll(async () => {
    const webhookSecret = generateWebhookSecret();
    const sandbox = await startSandbox({ apiKey: API_KEY, reviewDelayMs: 0 });
    closeLater(() => sandbox.close());
    const start = async (app: AppName) => {
      const proxy = await startFaultProxy({
        target: sandbox.url,
        delayMs: [SLOW_SERVICE_MS, SLOW_SERVICE_MS],
      });
      closeLater(() => proxy.close());
      const running: RunningApp = await startApp(() => runtime.prepare(app), {
        IDV_BASE_URL: proxy.url,
        IDV_API_KEY: API_KEY,
        IDV_WEBHOOK_SECRET: webhookSecret,
        VERIFY_KIT_SECRET: COOKIE_SECRET,
      });
      closeLater(() => running.close());
      const instance = running.instances[0] as AppInstance;
      const agents: ReturnType<typeof fromAddress>[] = [];
      closeLater(async () => {
        await Promise.all(agents.map((agent) => agent.close()));
      });
      const browserFrom = (address: string) => {
        const dispatcher = fromAddress(address);
        agents.push(dispatcher);
        return new Browser(instance.url, undefined, { dispatcher });
      };
      targets[app] = {
        runtime: runtime.name,
        app,
        instance,
        sandbox,
        proxy,
        webhookSecret,
        browser: () => browserFrom(nextAddress()),
        browserFrom,
        freshAddress: nextAddress,
        service: () => new Browser(instance.url),
      };
    };
    await Promise.all(APPS.map(start));
  }, START_TIMEOUT_MS);

  return targets;
}

import { type Sandbox, type SandboxOptions, startSandbox } from '@verify-kit/sandbox';
import {
  type Browser,
  expectKeyNeverLeaked,
  type FakeUpstream,
  startFakeUpstream,
} from '@verify-kit/testkit';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { SessionResponseBody } from '../../src/index.js';
import { type AppOptions, startApp, type TestApp } from './app.js';
import { openByCode, submitDocument, waitForStatus } from './sandbox.js';

/**
 * A real sandbox and an app on it for the tests of one file: started before them, closed after,
 * and every response and log line of the run checked for the key. Read `sandbox`/`app` in tests.
 */
export function useSandboxApp(apiKey: string, app: AppOptions = {}, sandboxOptions: SandboxOptions = {}) {
  const context = {} as { sandbox: Sandbox; app: TestApp };
  beforeAll(async () => {
    context.sandbox = await startSandbox({ apiKey, reviewDelayMs: 0, ...sandboxOptions });
    context.app = await startApp({ baseUrl: context.sandbox.url, apiKey, ...app });
  });
  afterAll(async () => {
    await context.app?.close();
    await context.sandbox?.close();
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

/** The person shows a document that the sandbox approves; resolves once it is APPROVED. */
export async function approveInSandbox(sandbox: Sandbox, sessionCode: string): Promise<string> {
  const { identificationId } = await submitDocument(sandbox, sessionCode, 'approve');
  await waitForStatus(sandbox, identificationId, 'APPROVED');
  return identificationId;
}

/** `POST /session` on the fake upstream; the identification it created (the browser never sees it). */
export async function startVerificationOn(upstream: FakeUpstream, browser: Browser): Promise<string> {
  const before = new Set(upstream.statuses.keys());
  expect((await browser.post('/identity/session')).status).toBe(201);
  const created = [...upstream.statuses.keys()].find((id) => !before.has(id));
  if (created === undefined) throw new Error('no session was created');
  return created;
}

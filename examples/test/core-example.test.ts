import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { until } from '@verify-kit/testkit';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { submitDocument } from './support/phone.js';

// The core README's Fetch server, called as Bun, Deno or Workers call it (its `fetch`), against a
// real sandbox: the gate sends a visitor without a verification to /verify, the widget's route
// starts one, and once the phone's document is approved the gated page opens.
const API_KEY = 'sk_test_core_example_8f2a';
let sandbox: Sandbox;
let server: typeof import('../core/fetch-server.js');

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: API_KEY, reviewDelayMs: 0 });
  process.env.IDV_BASE_URL = sandbox.url;
  process.env.IDV_API_KEY = API_KEY;
  process.env.VERIFY_KIT_SECRET = 'a-test-secret-of-at-least-32-characters';
  server = await import('../core/fetch-server.js');
});

afterAll(async () => {
  await server?.kit.close();
  await sandbox?.close();
});

const ORIGIN = 'http://app.localhost';
const call = (path: string, init: RequestInit = {}) =>
  server.default.fetch(new Request(`${ORIGIN}${path}`, init));

test('a visitor is sent to verify, starts a verification, and reaches the gated page once approved', async () => {
  const navigation = { accept: 'text/html', 'sec-fetch-mode': 'navigate' };
  const refused = await call('/account', { headers: navigation });
  expect([refused.status, refused.headers.get('location')]).toEqual([303, '/verify?returnTo=%2Faccount']);

  const created = await call('/identity/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  expect(created.status).toBe(201);
  const cookie = created.headers.get('set-cookie')?.split(';')[0] ?? '';
  expect(cookie).toMatch(/^vk_visitor=/);
  const { sessionCode } = (await created.json()) as { sessionCode: string };

  await submitDocument(sandbox, sessionCode);
  await until(async () => {
    const status = await call('/identity/status', { headers: { cookie } });
    return ((await status.json()) as { phase: string }).phase === 'approved';
  }, 'the approval');
  const granted = await call('/account', { headers: { ...navigation, cookie } });
  expect([granted.status, await granted.text()]).toEqual([200, 'welcome']);
  // The first approval moves the visitor to a new cookie (session fixation): the old one holds nothing.
  const moved = granted.headers.get('set-cookie')?.split(';')[0] ?? '';
  expect(moved).toMatch(/^vk_visitor=/);
  expect(moved).not.toBe(cookie);
  expect((await call('/account', { headers: { ...navigation, cookie: moved } })).status).toBe(200);
  expect((await call('/account', { headers: { ...navigation, cookie } })).status).toBe(303);
});

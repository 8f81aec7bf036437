import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { createSandboxControl } from '@verify-kit/sandbox/control';
import { Browser, deliverWebhook, expectKeyNeverLeaked, startSharedCache } from '@verify-kit/testkit';
import { CHROMIUM_ARGS, chromiumExecutable } from '@verify-kit/testkit/chromium';
import { type Browser as Chromium, chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { submitDocument, waitForStatus } from '../../packages/express/test/support/sandbox.js';
import { run, start } from '../../scripts/pack-check/exec.mjs';

// examples/next as a user deploys it: `next build`, then `next start`, with the README's three files
// (lib/verify-kit.ts, app/identity/[...path]/route.ts, proxy.ts) against the real sandbox. Next.js
// bundles the proxy apart from the route handlers: the flow below only passes when both find the
// same kit (its memory store), and a webhook received by a route handler refuses in the proxy.
const app = fileURLToPath(new URL('../next/', import.meta.url));
const nextBin = fileURLToPath(new URL('../next/node_modules/next/dist/bin/next', import.meta.url));
const webhookSecret = `whsec_${randomBytes(32).toString('base64')}`;
const env = { NEXT_TELEMETRY_DISABLED: '1' };

let sandbox: Sandbox;
let servers: { match: RegExpMatchArray; stop: () => void }[] = [];
/** Instance A; B (`other`) is a second `next start` of the same build: no memory in common. */
let origin: string;
let other: string;
let chromiumBrowser: Chromium | undefined;
let buildSeconds = 0;

beforeAll(async () => {
  // `pnpm build` for the packages the app imports (their dist/, as Next.js resolves them), when changed.
  const runner = fileURLToPath(new URL('../../scripts/build/run.mjs', import.meta.url));
  await run(process.execPath, [runner, '--quiet', '@verify-kit/example-next']);
  sandbox = await startSandbox({ port: 0, reviewDelayMs: 0 });
  // The build needs none of the kit's settings: createVerifyKit checks them at `next start`.
  const started = performance.now();
  await run(process.execPath, [nextBin, 'build'], { cwd: app, env });
  buildSeconds = (performance.now() - started) / 1000;
  const instanceEnv = {
    ...env,
    NODE_ENV: 'production',
    IDV_BASE_URL: sandbox.url,
    IDV_API_KEY: sandbox.apiKey,
    IDV_WEBHOOK_SECRET: webhookSecret,
    VERIFY_KIT_SECRET: randomBytes(32).toString('base64'),
  };
  // Two instances of the one build, each in its own process group (stopping it stops Next's workers).
  servers = await Promise.all(
    [0, 1].map(() =>
      start(process.execPath, [nextBin, 'start', '--port', '0', '--hostname', '127.0.0.1'], {
        cwd: app,
        ready: /Local:\s+(http:\/\/\S+)[\s\S]*Ready/,
        timeoutMs: 30_000,
        env: instanceEnv,
      }),
    ),
  );
  [origin, other] = servers.map((server) => server.match[1]!) as [string, string];
}, 240_000);

afterAll(async () => {
  await chromiumBrowser?.close();
  for (const server of servers) server.stop();
  await sandbox?.close();
});

interface Created {
  sessionCode: string;
  phase: string;
}

test('next build takes under two minutes here (it is reported, not a goal)', () => {
  console.info(`next build: ${buildSeconds.toFixed(1)} s`);
  expect(buildSeconds).toBeLessThan(120);
});

test("the build bundles the proxy apart: the kit is in its chunks and in the route handlers' (so sharing it is needed)", () => {
  const server = join(app, 'node_modules/.next/server');
  const holding = readdirSync(server, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.js'))
    .filter((file) => readFileSync(join(server, file), 'utf8').includes('@verify-kit/next.kits.v1'));
  expect(holding.length).toBeGreaterThanOrEqual(2);
  const proxyChunks = [
    ...readFileSync(join(server, 'middleware.js'), 'utf8').matchAll(/R\.c\("server\/(.+?)"\)/g),
  ].map((match) => match[1]);
  const inProxy = holding.filter((file) => proxyChunks.includes(file));
  expect(inProxy).toHaveLength(1);
  expect(holding.filter((file) => !proxyChunks.includes(file)).length).toBeGreaterThanOrEqual(1);
});

test('outside basePath the route handlers answer 404 ROUTE_NOT_FOUND; a wrong method 405', async () => {
  const browser = new Browser(origin);
  const nowhere = await browser.get<{ error: { code: string } }>('/identity/nowhere');
  expect(nowhere.status).toBe(404);
  expect(nowhere.json.error.code).toBe('ROUTE_NOT_FOUND');
  const wrong = await browser.get('/identity/session');
  expect(wrong.status).toBe(405);
  expect(wrong.headers.allow).toBe('POST');
});

test('/account: 303 to /verify for a navigation, 403 JSON otherwise; then the flow through approval, and a revocation webhook refuses in the proxy', async () => {
  const browser = new Browser(origin);
  const navigation = await browser.navigate('/account');
  expect(navigation.status).toBe(303);
  expect(navigation.headers.location).toBe('/verify?returnTo=%2Faccount');
  const api = await browser.get<{ error: { code: string } }>('/account', { accept: 'application/json' });
  expect(api.status).toBe(403);

  const created = await browser.post<Created>('/identity/session');
  expect(created.status).toBe(201);
  expect(created.json.phase).toBe('awaiting_user');
  // In production the cookie is __Host- and Secure whatever scheme reaches next start (a TLS proxy in front).
  expect(String(created.headers['set-cookie'])).toMatch(
    /^__Host-vk_visitor=[^;]+; Path=\/; Max-Age=\d+; HttpOnly; Secure; SameSite=Lax/,
  );

  const { identificationId } = await submitDocument(sandbox, created.json.sessionCode);
  await waitForStatus(sandbox, identificationId, 'APPROVED');
  const status = await browser.get<{ phase: string }>('/identity/status');
  expect(status.json.phase).toBe('approved');

  // The proxy lets the person in; the page's own kit.statusOf() sees the cookie the gate just moved.
  const account = await browser.navigate('/account');
  expect(account.status).toBe(200);
  expect(account.text).toMatch(/Verified: <!-- -->APPROVED<!-- --> \(<!-- -->approved/);
  expect((await browser.navigate('/account')).status).toBe(200);

  // The service revokes. Inside the visit the gate answers from its stored decision, until the
  // service's signed webhook reaches the route handler: then the proxy refuses the next request.
  await createSandboxControl(sandbox).setStatus(identificationId, 'REJECTED');
  expect((await browser.navigate('/account')).status).toBe(200);
  const webhook = await deliverWebhook(browser, {
    secret: webhookSecret,
    identificationId,
    type: 'identification.rejected',
    status: 'REJECTED',
  });
  expect(webhook.status).toBeLessThan(300);
  const refused = await browser.navigate('/account');
  expect(refused.status).toBe(303);
  expect(refused.headers.location).toBe('/verify?returnTo=%2Faccount');
  expectKeyNeverLeaked(sandbox.apiKey);
});

/** A person who started on instance A (POST /session with the widget's holder) and whom the sandbox approved. */
async function approvedOnA(): Promise<{ browser: Browser; identificationId: string; sessionCode: string }> {
  const browser = new Browser(origin);
  const created = await browser.post<Created>('/identity/session', {
    holder: randomBytes(16).toString('base64url'),
  });
  const { identificationId } = await submitDocument(sandbox, created.json.sessionCode);
  await waitForStatus(sandbox, identificationId, 'APPROVED');
  return { browser, identificationId, sessionCode: created.json.sessionCode };
}

test('two next start processes with no shared store (Vercel runs the proxy apart from the route handlers): the route handlers on A, the proxy and pages on B', async () => {
  const { browser, sessionCode } = await approvedOnA();
  const onB = new Browser(other, browser.cookies);
  expect((await onB.navigate('/account')).status).toBe(200);
  expect((await onB.get<{ phase: string }>('/identity/status')).json.phase).toBe('approved');
  const reloaded = await onB.post<Created>('/identity/session');
  expect(reloaded.json.sessionCode).toBe(sessionCode); // resumed on B: no second session billed
  for (const on of [browser, onB, browser]) expect((await on.navigate('/account')).status).toBe(200);
});

test('a Server Component reading statusOf() first after the approval (the home page’s badge) loses nothing: the proxy then lets the person in', async () => {
  const { browser } = await approvedOnA();
  const home = await browser.navigate('/');
  expect(home.text).toMatch(/data-testid="badge">Verified</);
  expect((await browser.get<{ phase: string }>('/identity/status')).json.phase).toBe('approved');
  expect((await browser.navigate('/account')).status).toBe(200);
});

test('a Server Action that asks kit.assertApproved() runs for the verified only, wherever it is posted (the proxy gates pages, not actions)', async () => {
  const manifest = JSON.parse(
    readFileSync(join(app, 'node_modules/.next/server/server-reference-manifest.json'), 'utf8'),
  ) as { node: Record<string, { exportedName: string; workers: Record<string, unknown> }> };
  const [actionId, action] = Object.entries(manifest.node).find(
    ([, entry]) => entry.exportedName === 'statement',
  )!;
  // Its module is shared: the public home page's bundle knows the action too.
  expect(Object.keys(action.workers)).toContain('app/page');
  const post = (browser: Browser) =>
    browser.fetch('POST', '/', {
      body: '[]',
      headers: {
        'next-action': actionId,
        'content-type': 'text/plain;charset=UTF-8',
        accept: 'text/x-component',
      },
    });
  const statement = /Your statement/;
  expect((await post(new Browser(origin))).text).not.toMatch(statement);
  const { browser, identificationId } = await approvedOnA();
  expect((await post(browser)).text).toMatch(statement);
  // Revoked (the service's signed webhook): the action refuses again.
  await createSandboxControl(sandbox).setStatus(identificationId, 'REJECTED');
  await deliverWebhook(browser, { secret: webhookSecret, identificationId, type: 'identification.rejected' });
  expect((await post(browser)).text).not.toMatch(statement);
});

test('a static gated page (prerendered /account/terms) is answered Cache-Control: private, no-store: through a shared cache, three never-verified visitors after the verified one are sent to /verify', async () => {
  const cache = await startSharedCache(origin);
  try {
    const { browser } = await approvedOnA();
    const verified = new Browser(cache.url, browser.cookies);
    for (let visit = 0; visit < 2; visit++) {
      const terms = await verified.navigate('/account/terms');
      expect(terms.status).toBe(200);
      expect(terms.headers['cache-control']).toBe('private, no-store');
    }
    for (let visitor = 0; visitor < 3; visitor++) {
      expect((await new Browser(cache.url).navigate('/account/terms')).status).toBe(303);
    }
  } finally {
    await cache.stop();
  }
});

test('in Chromium: /account sends to /verify, the widget shows the QR, the phone approves, the widget opens /account; forgetting sends back', async () => {
  chromiumBrowser = await chromium.launch({ executablePath: chromiumExecutable(), args: CHROMIUM_ARGS });
  const page = await chromiumBrowser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${origin}/account`);
  expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/verify?returnTo=%2Faccount');
  await page.locator('verify-identity [part~="start"]').click();
  await expect
    .poll(() => page.locator('verify-identity img').count(), { timeout: 15_000 })
    .toBeGreaterThan(0);
  const code = (await page.locator('verify-identity [part="code"] [aria-hidden]').textContent()) ?? '';
  await submitDocument(sandbox, code.replace(' ', ''));
  await page.waitForURL(`${origin}/account`);
  expect(await page.getByTestId('status').textContent()).toContain('APPROVED');
  await page.getByRole('button', { name: 'Show my statement' }).click();
  await expect.poll(() => page.getByTestId('statement').textContent()).toMatch(/Your statement/);

  // The Server Action forgets (its cookie cleared through cookies()), and the gate refuses again.
  await page.getByRole('button', { name: 'Forget my verification' }).click();
  await page.waitForURL(`${origin}/verify`);
  await page.goto(`${origin}/account`);
  expect(new URL(page.url()).pathname).toBe('/verify');
  expect(problems).toEqual([]);
});

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateWebhookSecret } from '@verify-kit/client';
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { createSandboxControl } from '@verify-kit/sandbox/control';
import { freePort, until } from '@verify-kit/testkit';
import { CHROMIUM_ARGS, chromiumExecutable } from '@verify-kit/testkit/chromium';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { start } from '../../scripts/pack-check/exec.mjs';

// examples/hono/server.ts (the @verify-kit/hono README's lines, unchanged) in real Chromium against
// the real sandbox, which sends its own signed webhooks to the example's /identity/webhook. The
// example's /verify page loads /assets/verify-identity.standalone.js, a static file the README leaves
// to the app: here the browser is handed the widget's build for that one URL (as a CDN would serve
// it); every other request goes to the example over HTTP.
const root = fileURLToPath(new URL('../..', import.meta.url));
const WIDGET_FILE = `${root}/packages/widget/dist/verify-identity.standalone.js`;
const webhookSecret = generateWebhookSecret();

let sandbox: Sandbox;
let example: { stop(): void } | undefined;
let origin: string;
let browser: Browser;
let widget: string;

beforeAll(async () => {
  try {
    widget = readFileSync(WIDGET_FILE, 'utf8');
  } catch {
    throw new Error(`${WIDGET_FILE} is missing: build the widget first (pnpm build)`);
  }
  // The sandbox needs the example's webhook URL before the example knows the sandbox: a port first.
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  sandbox = await startSandbox({
    port: 0,
    reviewDelayMs: 0,
    webhookUrl: `${origin}/identity/webhook`,
    webhookSecret,
  });
  const [started, launched] = await Promise.all([
    start('node', ['--conditions=source', '--import', 'tsx', 'server.ts'], {
      cwd: `${root}/examples/hono`,
      ready: /listening on http:\/\/\S+/,
      env: {
        IDV_BASE_URL: sandbox.url,
        IDV_API_KEY: sandbox.apiKey,
        IDV_WEBHOOK_SECRET: webhookSecret,
        VERIFY_KIT_SECRET: 'examples-hono-chromium-secret-of-32-characters',
        PORT: String(port),
      },
    }),
    chromium.launch({ executablePath: chromiumExecutable(), headless: true, args: CHROMIUM_ARGS }),
  ]);
  example = started;
  browser = launched;
});

afterAll(async () => {
  await browser?.close();
  example?.stop();
  await sandbox?.close();
});

/** Every header and every complete body the page received, to look for the API key in. */
function recordResponses(page: Page) {
  const seen: { what: string; text: string }[] = [];
  const reading: Promise<void>[] = [];
  page.on('response', (response) => {
    const what = `${response.request().method()} ${response.url()} ${response.status()} (headers)`;
    reading.push(
      response.allHeaders().then((headers) => {
        seen.push({ what, text: JSON.stringify(headers) });
      }),
    );
  });
  // A body once it is complete (a long-poll left open when the page moves on has none; a redirect neither).
  page.on('requestfinished', (request) => {
    reading.push(
      request.response().then(async (response) => {
        const body = await response?.body().catch(() => undefined);
        if (body === undefined) return;
        seen.push({ what: `${request.method()} ${request.url()} (body)`, text: body.toString('utf8') });
      }),
    );
  });
  return { seen, settled: () => Promise.all(reading) };
}

const place = (url: string) => `${new URL(url).pathname}${new URL(url).search}`;

test('in Chromium: /account → /verify, the QR, the simulator approves, "verified", /account 200; a revoking webhook refuses the next request; the key never reaches the page', async () => {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  const responses = recordResponses(page);
  await page.route(`${origin}/assets/verify-identity.standalone.js`, (route) =>
    route.fulfill({ contentType: 'text/javascript; charset=utf-8', body: widget }),
  );

  // Not verified: the gate's 303, followed by the browser, to the example's /verify page.
  const verify = await page.goto(`${origin}/account`);
  expect(place(page.url())).toBe('/verify?returnTo=%2Faccount');
  const redirect = await verify?.request().redirectedFrom()?.response();
  expect(redirect?.status()).toBe(303);
  expect(redirect?.url()).toBe(`${origin}/account`);

  // The widget: Start, then the QR (decoded) and the session code.
  await page.locator('verify-identity [part~="start"]').click();
  const qr = page.locator('verify-identity img[part="qr"]');
  await qr.waitFor({ state: 'visible' });
  await expect
    .poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);
  const shown = await page.locator('verify-identity [part="code"] [aria-hidden]').textContent();
  const code = (shown ?? '').replace(' ', '');
  expect(code).toMatch(/^\S{6,}$/);

  // The phone: the sandbox's simulator opens the session by its code and approves.
  const control = createSandboxControl(sandbox);
  const { identificationId } = await control.submitByCode(code, 'approve');
  await expect
    .poll(() => page.locator('verify-identity [part="title"]').textContent(), { timeout: 10_000 })
    .toBe('Your identity is verified');

  const account = await page.goto(`${origin}/account`);
  expect(account?.status()).toBe(200);
  expect(place(page.url())).toBe('/account');
  expect(await account?.text()).toBe('welcome');

  // The service revokes: the sandbox's own signed webhook reaches the example, and the next request
  // to /account is refused (303 back to /verify).
  await control.setStatus(identificationId, 'REJECTED');
  await until(
    async () =>
      (await control.deliveries({ identificationId })).some(
        (delivery) => delivery.eventType === 'identification.rejected' && delivery.ok,
      ),
    'the sandbox delivered identification.rejected to the example',
  );
  const refused = await page.goto(`${origin}/account`);
  expect(place(page.url())).toBe('/verify?returnTo=%2Faccount');
  expect((await refused?.request().redirectedFrom()?.response())?.status()).toBe(303);

  // No header and no body the page received carries the API key.
  await responses.settled();
  const bodies = responses.seen.filter((seen) => seen.what.endsWith('(body)'));
  expect(bodies.some((seen) => seen.what.startsWith(`POST ${origin}/identity/session`))).toBe(true);
  expect(bodies.some((seen) => seen.text === 'welcome')).toBe(true);
  for (const seen of responses.seen) {
    expect(seen.text.includes(sandbox.apiKey), `${seen.what} carries the API key`).toBe(false);
  }
  expect(problems).toEqual([]);
  await page.close();
});

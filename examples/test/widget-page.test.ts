import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createVerifyKit, type VerifyKit } from '@verify-kit/express';
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { CHROMIUM_ARGS, chromiumExecutable } from '@verify-kit/testkit/chromium';
import express from 'express';
import session from 'express-session';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { submitDocument } from './support/phone.js';

// The widget README's plain-HTML quick start in real Chromium: its page, its verify-page.js and its
// strings snippet, served under a strict CSP next to a real kit and the sandbox.
const file = (path: string) => readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8');
// The README's CSP: `img-src data:` for the QR, which rides in the session answer as a data: URL.
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:";

let sandbox: Sandbox;
let kit: VerifyKit;
let server: ReturnType<ReturnType<typeof express>['listen']>;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, reviewDelayMs: 0 });
  kit = createVerifyKit({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, workflowId: 'default' });
  const app = express();
  app.use(session({ secret: 'examples', resave: false, saveUninitialized: false }));
  app.use('/identity', kit.router);
  const page = (html: string) => (_req: express.Request, res: express.Response) => {
    res.set('content-security-policy', CSP).type('html').send(html);
  };
  const script = (js: string) => (_req: express.Request, res: express.Response) => {
    res.type('js').send(js);
  };
  app.get('/verify', page(file('../widget/page/verify.html')));
  app.get('/account', page('<h1>welcome</h1>'));
  app.get(
    '/assets/verify-identity.standalone.js',
    script(file('../../packages/widget/dist/verify-identity.standalone.js')),
  );
  app.get('/assets/verify-page.js', script(file('../widget/page/verify-page.js')));
  app.get('/assets/strings.js', script(file('../widget/page/strings.js')));
  app.get('/assets/theme.css', (_req, res) => {
    res.type('css').send(file('../widget/page/theme.css'));
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: chromiumExecutable(), args: CHROMIUM_ARGS });
});

afterAll(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await kit?.close();
  await sandbox?.close();
});

/** The README's page; `problems` collects CSP violations and uncaught errors. */
async function openVerifyPage(): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${origin}/verify`);
  return { page, problems };
}

test('the quick start: Start, the phone submits a document, and verify-page.js opens /account', async () => {
  const { page, problems } = await openVerifyPage();
  await page.locator('verify-identity [part~="start"]').click();
  const code = (await page.locator('verify-identity [part="code"] [aria-hidden]').textContent()) ?? '';
  await submitDocument(sandbox, code.replace(' ', ''));
  await page.waitForURL(`${origin}/account`);
  expect(await page.locator('h1').textContent()).toBe('welcome');
  expect(problems).toEqual([]);
  await page.close();
});

test('the strings snippet replaces the Start button’s text', async () => {
  const { page, problems } = await openVerifyPage();
  await page.addScriptTag({ url: '/assets/strings.js', type: 'module' });
  await expect
    .poll(() => page.locator('verify-identity [part~="start"]').textContent())
    .toBe('Verify me now');
  expect(problems).toEqual([]);
  await page.close();
});

test('the theming stylesheet colours the buttons, rounds them and spaces the session code', async () => {
  const { page, problems } = await openVerifyPage();
  await page.addStyleTag({ url: '/assets/theme.css' });
  const start = page.locator('verify-identity [part~="start"]');
  await expect
    .poll(() => start.evaluate((button) => getComputedStyle(button).backgroundColor))
    .toBe('rgb(107, 33, 168)');
  // Buttons take ¾ of --verify-identity-radius.
  expect(await start.evaluate((button) => getComputedStyle(button).borderTopLeftRadius)).toBe('3px');
  await start.click();
  const code = page.locator('verify-identity [part="code"]');
  const spacing = await code.evaluate((element) => getComputedStyle(element).letterSpacing);
  expect(Number.parseFloat(spacing)).toBeGreaterThan(0);
  expect(problems).toEqual([]);
  await page.close();
});

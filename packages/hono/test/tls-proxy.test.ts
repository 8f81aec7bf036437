// Hono on Node behind a TLS-terminating proxy (issue 40, finding 1): in production the visitor's
// cookie is __Host-vk_visitor with Secure whatever scheme reaches @hono/node-server, and only that
// name is read, so a plain vk_visitor planted by a sibling subdomain or an http answer is nothing.
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { approveInSandbox, Browser, CookieJar, capturingLogger } from '@verify-kit/testkit';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createVerifyKit, type VerifyKitOptions } from '../src/index.js';
import { type Served, serveApp } from './support/serve.js';

/** What the proxy in front adds to every request it passes on. */
const FROM_PROXY = { 'x-forwarded-proto': 'https' };

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, reviewDelayMs: 0 });
});
afterAll(() => sandbox?.close());

/** The README's app, its kit made as `next start`-like production makes it (NODE_ENV=production). */
async function productionApp(
  options: Partial<VerifyKitOptions> = {},
): Promise<Served & { kit: ReturnType<typeof createVerifyKit> }> {
  vi.stubEnv('NODE_ENV', 'production');
  const kit = createVerifyKit({
    baseUrl: sandbox.url,
    apiKey: sandbox.apiKey,
    workflowId: 'default',
    secret: 'hono-tls-proxy-test-secret-0123456789abc',
    logger: capturingLogger(),
    ...options,
  });
  vi.unstubAllEnvs();
  const app = new Hono();
  app.route('/identity', kit.router);
  app.get('/account', kit.requireApproved(), (c) => c.text('welcome'));
  const served = await serveApp(app);
  return { ...served, kit };
}

/** A browser whose requests come through the TLS proxy. */
const throughProxy = (url: string, jar = new CookieJar()) => {
  const browser = new Browser(url, jar);
  return {
    jar,
    post: <T>(path: string) => browser.post<T>(path, {}, FROM_PROXY),
    get: (path: string) => browser.get(path, FROM_PROXY),
  };
};

describe('Hono behind a TLS-terminating proxy, in production', () => {
  let app: Awaited<ReturnType<typeof productionApp>>;
  beforeAll(async () => {
    app = await productionApp();
  });
  afterAll(async () => {
    await app?.kit.close();
    await app?.close();
  });

  it('writes __Host-vk_visitor with Secure', async () => {
    const created = await throughProxy(app.url).post('/identity/session');
    expect(String(created.headers['set-cookie'])).toMatch(
      /^__Host-vk_visitor=[\w-]+; Path=\/; Max-Age=\d+; HttpOnly; Secure; SameSite=Lax$/,
    );
  });

  it("a plain vk_visitor planted in the victim's browser is nothing: the victim verifies on a verification of their own, and the attacker's stays refused", async () => {
    const attacker = throughProxy(app.url);
    const planted = await attacker.post<{ sessionCode: string }>('/identity/session');
    const [name, value] = [...attacker.jar][0] as [string, string];
    expect(name).toBe('__Host-vk_visitor');
    const victim = throughProxy(app.url);
    victim.jar.set('vk_visitor', value); // what a sibling subdomain or an http answer can set
    const own = await victim.post<{ sessionCode: string }>('/identity/session');
    expect(own.json.sessionCode).not.toBe(planted.json.sessionCode);
    await approveInSandbox(sandbox, own.json.sessionCode);
    expect((await victim.get('/account')).status).toBe(200);
    expect((await attacker.get('/account')).status).toBe(403);
  });
});

describe('the https option', () => {
  it("'x-forwarded-proto' follows the proxy's header; false writes a plain cookie, and production says so once", async () => {
    const said = { forwarded: [] as string[], plain: [] as string[] };
    const forwarded = await productionApp({
      https: 'x-forwarded-proto',
      logger: capturingLogger(said.forwarded),
    });
    const plain = await productionApp({ https: false, logger: capturingLogger(said.plain) });
    const warnings = (lines: string[]) =>
      lines.filter((line) => line.includes('without Secure and the __Host- prefix'));
    try {
      const secure = await throughProxy(forwarded.url).post('/identity/session');
      expect(String(secure.headers['set-cookie'])).toMatch(/^__Host-vk_visitor=.*; Secure;/);
      const direct = await new Browser(forwarded.url).post('/identity/session');
      expect(String(direct.headers['set-cookie'])).toMatch(/^vk_visitor=/);
      const unsafe = await throughProxy(plain.url).post('/identity/session');
      expect(String(unsafe.headers['set-cookie'])).toMatch(
        /^vk_visitor=[^;]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/,
      );
      await throughProxy(plain.url).post('/identity/session');
      // Once per kit: at creation for `false`, at the first plain answer for 'x-forwarded-proto'.
      expect([warnings(said.forwarded).length, warnings(said.plain).length]).toEqual([1, 1]);
    } finally {
      await Promise.all(
        [forwarded, plain].map(async (app) => {
          await app.kit.close();
          await app.close();
        }),
      );
    }
  });
});

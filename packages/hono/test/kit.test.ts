// @verify-kit/hono over real HTTP: a Hono app served by @hono/node-server on 127.0.0.1, the real
// sandbox upstream, testkit's Browser (a cookie jar) as the person.
import { generateWebhookSecret } from '@verify-kit/client';
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { createSandboxControl, type SandboxControl } from '@verify-kit/sandbox/control';
import { type Browser, deliverWebhook, expectKeyNeverLeaked } from '@verify-kit/testkit';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifyKit, type VerifyKit, type VerifyKitOptions, VISITOR_COOKIE } from '../src/index.js';
import { type Served, serveApp } from './support/serve.js';

interface Created {
  sessionCode: string;
  phase: string;
}
interface Refused {
  error: { code: string; message: string };
  status: string | null;
  phase: string | null;
}

const SECRET = 'a-test-secret-of-at-least-32-characters!';
const webhookSecret = generateWebhookSecret();
let sandbox: Sandbox;
let control: SandboxControl;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, reviewDelayMs: 0 });
  control = createSandboxControl(sandbox);
});
afterAll(async () => {
  await sandbox.close();
  expectKeyNeverLeaked(sandbox.apiKey);
});

type Env = { Variables: { user?: string } };

/**
 * The app: the router on /identity, `/account` gated for pages, plus a gated JSON API that
 * reads its body, a handler that builds its own Response, `statusOf` and `forget` routes, and a test
 * sign-in (the `x-user` header becomes the account, through a Variable `accountOf` reads).
 */
async function start(options: Partial<VerifyKitOptions<Env>> = {}) {
  const kit = createVerifyKit<Env>({
    baseUrl: sandbox.url,
    apiKey: sandbox.apiKey,
    workflowId: 'default',
    webhookSecret,
    secret: SECRET,
    accountOf: (c) => c.get('user'),
    ...options,
  });
  const app = new Hono<Env>();
  app.use('*', async (c, next) => {
    const user = c.req.header('x-user');
    if (user !== undefined) c.set('user', user);
    await next();
  });
  app.route('/identity', kit.router);
  app.get('/account', kit.requireApproved({ redirectTo: '/verify' }), (c) => c.text('welcome'));
  app.post('/api/echo', kit.requireApproved(), async (c) => c.json({ echoed: await c.req.json() }));
  app.get('/raw', kit.requireApproved(), () => new Response('raw'));
  app.get('/custom', async (c) => c.json(await kit.statusOf(c)));
  app.post('/forget', async (c) => {
    await kit.forget(c);
    return c.json({ ok: true });
  });
  const served = await serveApp(app);
  return { kit, served };
}

async function withApp(
  work: (app: { kit: VerifyKit<Env>; served: Served }) => Promise<void>,
  options?: Partial<VerifyKitOptions<Env>>,
) {
  const { kit, served } = await start(options);
  try {
    await work({ kit, served });
  } finally {
    await served.close();
    await kit.close();
  }
}

const cookieNames = (res: { headers: Record<string, string | string[] | undefined> }) =>
  [res.headers['set-cookie'] ?? []].flat().map((line) => line.split('=')[0]);

/** The person opens the session by its code, shows a document; the sandbox approves it. */
async function approve(sessionCode: string) {
  const { identificationId } = await control.submitByCode(sessionCode);
  await control.waitForStatus(identificationId, 'APPROVED');
  return identificationId;
}

describe('the widget protocol under /identity', () => {
  it('POST /identity/session creates (201, the sealed visitor cookie); GET /identity/status follows it', async () => {
    await withApp(async ({ served }) => {
      const browser = served.browser();
      expect((await browser.get('/identity/status')).status).toBe(404);
      const created = await browser.post<Created>('/identity/session');
      expect(created.status).toBe(201);
      expect(created.json.sessionCode).toMatch(/^[A-Z2-9]{8}$/);
      expect(created.json.phase).toBe('awaiting_user');
      expect(cookieNames(created)).toEqual([VISITOR_COOKIE]);
      expect([created.headers['set-cookie']].flat()).toEqual([
        expect.stringMatching(/; HttpOnly; SameSite=Lax$/),
      ]);
      const status = await browser.get<{ phase: string }>('/identity/status');
      expect(status.status).toBe(200);
      expect(status.json.phase).toBe('awaiting_user');
      const qr = await browser.get('/identity/qr.svg');
      expect(qr.status).toBe(200);
      expect(qr.headers['content-type']).toMatch(/^image\/svg\+xml/);
      // Reused, not replaced.
      expect((await browser.post<Created>('/identity/session')).json.sessionCode).toBe(
        created.json.sessionCode,
      );
      // Another browser has none.
      expect((await served.browser().get('/identity/status')).status).toBe(404);
    });
  });

  it('answers 404 and 405 JSON under the mount, and a HEAD of the status without a body', async () => {
    await withApp(async ({ served }) => {
      const browser = served.browser();
      const unknown = await browser.get<Refused>('/identity/nothing');
      expect(unknown.status).toBe(404);
      expect(unknown.json.error.code).toBe('ROUTE_NOT_FOUND');
      const wrong = await browser.get<Refused>('/identity/session');
      expect(wrong.status).toBe(405);
      expect(wrong.headers.allow).toBe('POST');
      await browser.post('/identity/session');
      const head = await browser.fetch('HEAD', '/identity/status');
      expect(head.status).toBe(200);
      expect(head.text).toBe('');
    });
  });

  it('a long-poll is held, and released when the client leaves', async () => {
    await withApp(async ({ served, kit }) => {
      const browser = served.browser();
      await browser.post('/identity/session');
      const started = Date.now();
      const leaving = AbortSignal.timeout(300);
      await expect(
        browser.fetch('GET', '/identity/status?wait=20&since=awaiting_user', { signal: leaving }),
      ).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(5000);
      // The slot was given back: the kit closes at once, with no long-poll left to answer.
      const closing = Date.now();
      await kit.close();
      expect(Date.now() - closing).toBeLessThan(2000);
    });
  });
});

describe('requireApproved', () => {
  it('refuses before approval (303 to /verify for a page, 403 JSON for fetch), lets the approved person in', async () => {
    await withApp(async ({ served }) => {
      const browser = served.browser();
      const before = await browser.navigate('/account');
      expect(before.status).toBe(303);
      expect(before.headers.location).toBe('/verify?returnTo=%2Faccount');
      const created = await browser.post<Created>('/identity/session');

      const page = await browser.navigate('/account');
      expect(page.status).toBe(303);
      expect(page.headers.location).toBe('/verify?returnTo=%2Faccount');
      expect(page.headers['cache-control']).toBe('no-store');
      const api = await browser.get<Refused>('/account');
      expect(api.status).toBe(403);
      expect(api.headers['content-type']).toMatch(/^application\/json/);
      expect(api.json).toMatchObject({ error: { code: 'NOT_APPROVED' }, phase: 'awaiting_user' });

      await approve(created.json.sessionCode);
      const cookieBefore = browser.cookieHeader;
      const granted = await browser.navigate('/account');
      expect(granted.status).toBe(200);
      expect(granted.text).toBe('welcome');
      // The first approved gated request moves the visitor to a new id (session fixation): its
      // cookie is on the handler's response.
      expect(cookieNames(granted)).toEqual([VISITOR_COOKIE]);
      expect(browser.cookieHeader).not.toBe(cookieBefore);
      expect((await browser.get('/account')).text).toBe('welcome');
      expect((await browser.get('/identity/status')).json).toMatchObject({ phase: 'approved' });
    });
  });

  it('never reads the body: the handler after the gate reads the JSON the browser posted', async () => {
    await withApp(async ({ served }) => {
      const browser = served.browser();
      const refused = await browser.post<Refused>('/api/echo', { hello: 'gate' });
      expect(refused.status).toBe(403);
      const created = await browser.post<Created>('/identity/session');
      await approve(created.json.sessionCode);
      const big = { hello: 'gate', list: Array.from({ length: 2000 }, (_, i) => i) };
      const echoed = await browser.post<{ echoed: unknown }>('/api/echo', big);
      expect(echoed.status).toBe(200);
      expect(echoed.json).toEqual({ echoed: big });
    });
  });

  it("the visitor's cookie reaches a Response the handler built itself", async () => {
    await withApp(async ({ served }) => {
      const browser = served.browser();
      const created = await browser.post<Created>('/identity/session');
      await approve(created.json.sessionCode);
      const raw = await browser.get('/raw');
      expect(raw.status).toBe(200);
      expect(raw.text).toBe('raw');
      expect(cookieNames(raw)).toEqual([VISITOR_COOKIE]);
      // The new cookie works: inside the visit, granted again, no new cookie.
      const again = await browser.get('/raw');
      expect(again.status).toBe(200);
      expect(cookieNames(again)).toEqual([]);
    });
  });

  it('a signed webhook revoking the approval refuses the next request', async () => {
    await withApp(async ({ served }) => {
      const browser = served.browser();
      const created = await browser.post<Created>('/identity/session');
      const identificationId = await approve(created.json.sessionCode);
      expect((await browser.get('/account')).status).toBe(200);

      const service = served.browser();
      const forged = await deliverWebhook(service, {
        secret: generateWebhookSecret(),
        identificationId,
        type: 'identification.rejected',
        status: 'REJECTED',
      });
      expect(forged.status).toBe(401);
      expect((await browser.get('/account')).status).toBe(200);

      const revoked = await deliverWebhook(service, {
        secret: webhookSecret,
        identificationId,
        type: 'identification.rejected',
        status: 'REJECTED',
      });
      expect(revoked.status).toBeLessThan(300);
      const refused = await browser.get<Refused>('/account');
      expect(refused.status).toBe(403);
      expect(refused.json.error.code).toBe('NOT_APPROVED');
      expect((await browser.navigate('/account')).status).toBe(303);
    });
  });

  it('an upstream that cannot be reached: creation answers 503, the gate never passes', async () => {
    await withApp(
      async ({ served }) => {
        const browser = served.browser();
        const refused = await browser.get<Refused>('/account');
        expect(refused.status).toBe(403);
        const created = await browser.post<Refused>('/identity/session');
        expect(created.status).toBe(503);
      },
      { baseUrl: 'http://127.0.0.1:9', retries: 0, timeoutMs: 500 },
    );
  });
});

describe('accounts, statusOf and forget', () => {
  it("accountOf is given Hono's Context: the verification follows the account to another browser", async () => {
    await withApp(async ({ served }) => {
      const phone = served.browser();
      const laptop = served.browser();
      const ada = { 'x-user': 'ada' };
      const created = await phone.fetch<Created>('POST', '/identity/session', { json: {}, headers: ada });
      expect(created.status).toBe(201);
      await approve(created.json.sessionCode);
      expect((await laptop.get('/account', ada)).status).toBe(200);
      expect((await laptop.get('/account', { 'x-user': 'grace' })).status).toBe(403);
      expect((await laptop.get('/account')).status).toBe(403);
    });
  });

  it('statusOf(c) answers the status; forget(c) unbinds it and clears the cookie', async () => {
    await withApp(async ({ served }) => {
      const browser: Browser = served.browser();
      expect((await browser.get('/custom')).json).toMatchObject({
        status: null,
        phase: null,
        approved: false,
      });
      const created = await browser.post<Created>('/identity/session');
      await approve(created.json.sessionCode);
      const custom = await browser.get('/custom');
      expect(custom.json).toMatchObject({ status: 'APPROVED', phase: 'approved', approved: true });
      expect((await browser.get('/account')).status).toBe(200);

      const forgotten = await browser.post('/forget');
      expect(forgotten.status).toBe(200);
      expect(cookieNames(forgotten)).toEqual([VISITOR_COOKIE]);
      expect((await browser.get('/account')).status).toBe(403);
      expect((await browser.get('/identity/status')).status).toBe(404);
    });
  });

  it('health() and close(): closed, the router answers 503 KIT_CLOSED', async () => {
    await withApp(async ({ served, kit }) => {
      expect(await kit.health()).toMatchObject({ ok: true, bus: 'not-shared', store: 'ok' });
      await kit.close();
      const closed = await served.browser().post<Refused>('/identity/session');
      expect(closed.status).toBe(503);
      expect(closed.json.error.code).toBe('KIT_CLOSED');
      expect((await served.browser().get('/account')).status).toBe(503);
    });
  });
});

describe('the mount', () => {
  it('a router mounted elsewhere than basePath answers 500 and says where, never a silent 404', async () => {
    const warnings: string[] = [];
    const kit = createVerifyKit({
      baseUrl: sandbox.url,
      apiKey: sandbox.apiKey,
      workflowId: 'default',
      secret: SECRET,
      logger: { warn: (message) => warnings.push(message) },
    });
    const app = new Hono();
    app.route('/verification', kit.router);
    const served = await serveApp(app);
    try {
      const res = await served.browser().post<Refused>('/verification/session');
      expect(res.status).toBe(500);
      expect(res.json.error.message).toBe(
        `kit.router is mounted at "/verification" but its basePath is "/identity": mount it with app.route('/identity', kit.router), or pass createVerifyKit({ basePath: '/verification' })`,
      );
      await served.browser().get('/verification/status');
      expect(warnings).toEqual([res.json.error.message]);
    } finally {
      await served.close();
      await kit.close();
    }
  });

  it('basePath names another mount, also under an app.basePath()', async () => {
    const kit = createVerifyKit({
      baseUrl: sandbox.url,
      apiKey: sandbox.apiKey,
      workflowId: 'default',
      secret: SECRET,
      basePath: '/api/kyc',
    });
    const app = new Hono().basePath('/api');
    app.route('/kyc', kit.router);
    const served = await serveApp(app);
    try {
      const browser = served.browser();
      const created = await browser.post<{ qrCodeUrl: string }>('/api/kyc/session');
      expect(created.status).toBe(201);
      expect((await browser.get('/api/kyc/status')).status).toBe(200);
      expect((await browser.get('/api/kyc/qr.svg')).status).toBe(200);
    } finally {
      await served.close();
      await kit.close();
    }
  });

  it('a wrong basePath is refused at createVerifyKit, naming the option', () => {
    expect(() =>
      createVerifyKit({
        baseUrl: sandbox.url,
        apiKey: sandbox.apiKey,
        workflowId: 'default',
        secret: SECRET,
        basePath: '/identity/',
      }),
    ).toThrow(/basePath must not end with "\/"/);
    expect(() =>
      createVerifyKit({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, workflowId: 'default' } as never),
    ).toThrow(/secret is required/);
  });
});

// What an integrator of the Fetch door relies on, over real HTTP (the Node bridge serveFetch) against
// a real sandbox: the gate's answers and the cookie it forwards, a body the gate leaves whole, the
// sealed visitor cookie (tampered, forgotten, re-issued on approval), the options checked up front,
// the door's own 404, a long-poll's slot given back when its client leaves, the fail-closed answer
// when the service is down, and the API key in no response and no log line.
import type { SessionResponseBody, StatusResponseBody } from '@verify-kit/protocol';
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import {
  Browser,
  capturingLogger,
  expectKeyNeverLeaked,
  type Listening,
  logLines,
  serveFetch,
} from '@verify-kit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submitDocument, waitForStatus } from '../../express/test/support/sandbox.js';
import { createVerifyKit, isVerifyKitError, type VerifyKit, type VerifyKitOptions } from '../src/index.js';
import { appOf, bodyUsedAfterGate } from './support/fetch-app.js';

const API_KEY = 'sk_test_fetch_door_7a3e91c4';
const SECRET = 'fetch-door-test-secret-0123456789abcdefghij';
const html = { accept: 'text/html,application/xhtml+xml', 'sec-fetch-mode': 'navigate' };

type KitOptions = Partial<VerifyKitOptions>;

/** A sandbox, a Fetch kit on it and the app on a real port; closed after the tests of the enclosing describe. */
function useFetchApp(options: KitOptions = {}) {
  const context = {} as { sandbox: Sandbox; kit: VerifyKit; server: Listening; browser(): Browser };
  beforeAll(async () => {
    context.sandbox = await startSandbox({ apiKey: API_KEY, reviewDelayMs: 0 });
    context.kit = createVerifyKit({
      baseUrl: context.sandbox.url,
      apiKey: API_KEY,
      workflowId: 'default',
      basePath: '/identity',
      secret: SECRET,
      logger: capturingLogger(),
      ...options,
    });
    context.server = await serveFetch(appOf(context.kit));
    context.browser = () => new Browser(context.server.url);
  });
  afterAll(async () => {
    await context.kit?.close();
    await context.server?.close();
    await context.sandbox?.close();
  });
  return context;
}

const visitorOf = (browser: Browser) => browser.cookies.get('vk_visitor');

/** The person shows a document the sandbox approves; resolves once the sandbox says APPROVED. */
async function approve(sandbox: Sandbox, sessionCode: string): Promise<void> {
  const { identificationId } = await submitDocument(sandbox, sessionCode, 'approve');
  await waitForStatus(sandbox, identificationId, 'APPROVED');
}

describe('the gate on the Fetch door', () => {
  const context = useFetchApp();

  it('before approval: 303 with returnTo for a navigation where redirectTo is set, 403 JSON otherwise', async () => {
    const browser = context.browser();
    const none = await browser.get('/account?tab=2', html);
    expect(none.status).toBe(303);
    expect(none.headers.location).toBe('/verify?returnTo=%2Faccount%3Ftab%3D2');
    expect(none.headers['cache-control']).toBe('no-store');
    expect(none.text).toBe('');
    const noRedirect = await browser.get('/api/data', html);
    expect(noRedirect.status).toBe(403);
    expect(noRedirect.json).toEqual({
      error: { code: 'NOT_APPROVED', message: expect.stringMatching(/no verification was started/) },
      status: null,
      phase: null,
    });

    await browser.post('/identity/session');
    const fetched = await browser.get('/api/data');
    expect(fetched.status).toBe(403);
    expect(fetched.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(fetched.json).toMatchObject({
      error: { code: 'NOT_APPROVED' },
      status: 'IN_AUTOMATIC_REVIEW',
      phase: 'awaiting_user',
    });
    // Not a navigation (a script's fetch, a POST): JSON, even where redirectTo is set.
    expect((await browser.get('/account')).status).toBe(403);
    expect((await browser.fetch('POST', '/account', { headers: html })).status).toBe(403);
    const redirected = await browser.get('/account', html);
    expect(redirected.status).toBe(303);
    expect(redirected.headers.location).toBe('/verify?returnTo=%2Faccount');
  });

  it('grants once the sandbox approves; the first grant re-issues the cookie through GateResult.headers, once', async () => {
    const browser = context.browser();
    const created = await browser.post<SessionResponseBody>('/identity/session');
    const before = visitorOf(browser);
    expect(before).toBeDefined();
    const kept = browser.cookies.clone();
    expect((await browser.get('/api/data')).status).toBe(403);
    await approve(context.sandbox, created.json.sessionCode);

    const granted = await browser.get('/api/data');
    expect(granted.status).toBe(200);
    expect(granted.json).toEqual({ gated: '/api/data' });
    const setCookie = [granted.headers['set-cookie'] ?? []].flat();
    expect(setCookie).toHaveLength(1);
    expect(setCookie[0]).toMatch(/^vk_visitor=[\w-]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    const after = visitorOf(browser);
    expect(after).not.toBe(before);
    // Once: the next grants keep the cookie.
    const again = await browser.get('/account', html);
    expect(again.status).toBe(200);
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(visitorOf(browser)).toBe(after);
    expect((await browser.get<StatusResponseBody>('/identity/status')).json.phase).toBe('approved');

    // The cookie from before the approval holds nothing any more (session fixation).
    const old = new Browser(context.server.url, kept);
    expect(await old.get('/identity/status')).toMatchObject({
      status: 404,
      json: { error: { code: 'NO_VERIFICATION_SESSION' } },
    });
    expect((await old.get('/api/data')).json).toMatchObject({ status: null, phase: null });
  });

  for (const page of ['/custom', '/custom-dropping-headers']) {
    it(`statusOf seeing the approval first moves nothing (${page}): the verification survives a page whose headers never reach the browser, and the gate moves the cookie once`, async () => {
      const browser = context.browser();
      const created = await browser.post<SessionResponseBody>('/identity/session');
      const before = visitorOf(browser);
      const kept = browser.cookies.clone();
      await approve(context.sandbox, created.json.sessionCode);
      const custom = await browser.get(page);
      expect(custom.json).toMatchObject({ status: 'APPROVED', phase: 'approved', approved: true });
      // Nothing was lost by reading: the cookie from before it, and the browser's, still find it.
      const unread = new Browser(context.server.url, kept.clone());
      expect((await unread.get<StatusResponseBody>('/identity/status')).json.phase).toBe('approved');
      expect((await browser.get<StatusResponseBody>('/identity/status')).json.phase).toBe('approved');
      const granted = await browser.get('/api/data');
      expect(granted.status).toBe(200);
      const after = visitorOf(browser);
      expect(after).not.toBe(before);
      expect([granted.headers['set-cookie']].flat()).toHaveLength(1);
      expect((await browser.get('/api/data')).status).toBe(200);
      expect(visitorOf(browser)).toBe(after);
      // The cookie from before the move holds nothing any more.
      expect((await new Browser(context.server.url, kept).get('/api/data')).status).toBe(403);
    });
  }

  it('never reads the body: request.bodyUsed is false after gate, refused or granted, and the handler reads it whole', async () => {
    const browser = context.browser();
    const created = await browser.post<SessionResponseBody>('/identity/session');
    const payload = { body: 'x'.repeat(64 * 1024), headers: { 'content-type': 'text/plain' } };
    bodyUsedAfterGate.length = 0;
    expect((await browser.fetch('POST', '/api/data', payload)).status).toBe(403);
    await approve(context.sandbox, created.json.sessionCode);
    const granted = await browser.fetch<{ body: string }>('POST', '/api/data', payload);
    expect(granted.status).toBe(200);
    expect(granted.json.body).toBe(payload.body);
    expect(bodyUsedAfterGate).toEqual([false, false]);
  });
});

describe('the sealed visitor cookie', () => {
  const context = useFetchApp();

  it('a tampered vk_visitor reads as no session: 404 on /status, 403 at the gate, never 500', async () => {
    const browser = context.browser();
    await browser.post('/identity/session');
    const value = visitorOf(browser) as string;
    const at = Math.floor(value.length / 2);
    const flipped = value[at] === 'A' ? 'B' : 'A';
    for (const tampered of [
      `${value.slice(0, at)}${flipped}${value.slice(at + 1)}`,
      value.slice(0, -4),
      'x',
      '',
    ]) {
      const forged = new Browser(context.server.url);
      forged.cookies.set('vk_visitor', tampered);
      const status = await forged.get<{ error: { code: string } }>('/identity/status');
      expect(status.status).toBe(404);
      expect(status.json.error.code).toBe('NO_VERIFICATION_SESSION');
      expect((await forged.get('/identity/qr.svg')).status).toBe(404);
      expect((await forged.get('/api/data')).json).toMatchObject({
        error: { code: 'NOT_APPROVED' },
        phase: null,
      });
      // The forged cookie is replaced by a good one with a verification of its own.
      expect((await forged.post('/identity/session')).status).toBe(201);
      expect(visitorOf(forged)).not.toBe(tampered);
      expect((await forged.get('/identity/status')).status).toBe(200);
    }
    // The real one still works.
    expect((await browser.get('/identity/status')).status).toBe(200);
  });

  it('forget(): this browser and a copy of its cookie kept from before find nothing', async () => {
    const browser = context.browser();
    await browser.post('/identity/session');
    const kept = browser.cookies.clone();
    const forgotten = await browser.post('/forget');
    expect(forgotten.status).toBe(200);
    expect([forgotten.headers['set-cookie']].flat()[0]).toMatch(/^vk_visitor=/);
    for (const who of [browser, new Browser(context.server.url, kept)]) {
      const status = await who.get<{ error: { code: string } }>('/identity/status');
      expect(status.status).toBe(404);
      expect(status.json.error.code).toBe('NO_VERIFICATION_SESSION');
      expect((await who.get('/api/data')).json).toMatchObject({ status: null, phase: null });
    }
  });
});

describe('the Fetch door’s own answers', () => {
  const context = useFetchApp({ maxWaitSeconds: 20 });

  it('404 ROUTE_NOT_FOUND JSON under basePath for a path the kit does not answer', async () => {
    const browser = context.browser();
    for (const path of ['/identity/nope', '/identity/session/extra', '/identity/status.json']) {
      const res = await browser.get<{ error: { code: string; message: string } }>(path);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.json.error).toEqual({
        code: 'ROUTE_NOT_FOUND',
        message: 'verify-kit answers /session, /status, /qr.svg and /webhook',
      });
    }
    // A trailing slash names the route, as Express allows it: the route's own answer.
    const slash = await browser.get<{ error: { code: string } }>('/identity/status/');
    expect([slash.status, slash.json.error.code]).toEqual([404, 'NO_VERIFICATION_SESSION']);
  });

  it('a long-poll whose client leaves gives its slot back at once (the bridge’s abort signal)', async () => {
    const browser = context.browser();
    await browser.post('/identity/session');
    const path = '/identity/status?wait=20&since=awaiting_user';
    const clients = Array.from({ length: 4 }, () => new AbortController());
    const held = clients.map(({ signal }) => browser.fetch('GET', path, { signal }).catch(() => 'left'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const refused = await browser.get<{ error: { code: string } }>(path);
    expect(refused.status).toBe(429);
    expect(refused.json.error.code).toBe('TOO_MANY_LONG_POLLS');
    clients[0]?.abort();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const startedAt = Date.now();
    const next = await browser.get<StatusResponseBody>('/identity/status?wait=1&since=awaiting_user');
    expect(next.status).toBe(200);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(900); // held, not refused
    for (const client of clients) client.abort();
    expect(await Promise.all(held)).toEqual(['left', 'left', 'left', 'left']);
  });
});

describe('createVerifyKit checks basePath and secret', () => {
  const base = { baseUrl: 'http://127.0.0.1:9', apiKey: API_KEY, workflowId: 'default' };
  const made = (options: Record<string, unknown>) => () =>
    createVerifyKit({ ...base, ...options } as unknown as VerifyKitOptions);

  it.each([
    [
      'basePath "identity"',
      { basePath: 'identity', secret: SECRET },
      'createVerifyKit: basePath must start with "/" and be a URL path',
    ],
    [
      'basePath "/identity/"',
      { basePath: '/identity/', secret: SECRET },
      'createVerifyKit: basePath must not end with "/"',
    ],
    [
      'basePath "//identity"',
      { basePath: '//identity', secret: SECRET },
      'createVerifyKit: basePath must not hold "//"',
    ],
    ['no secret', { basePath: '/identity' }, 'createVerifyKit: secret is required'],
    [
      'a 10-character secret',
      { basePath: '/identity', secret: 'ten-chars!' },
      'createVerifyKit: secret must be a string of at least 32 characters (got 10 characters)',
    ],
  ])('%s → INVALID_OPTIONS', (_name, options, message) => {
    let thrown: unknown;
    try {
      made(options)();
    } catch (error) {
      thrown = error;
    }
    expect(isVerifyKitError(thrown, 'INVALID_OPTIONS')).toBe(true);
    expect((thrown as Error).message).toContain(message);
    expect((thrown as Error).message).not.toContain('ten-chars!');
  });
});

describe('the service down: the gate fails closed', () => {
  const context = useFetchApp({ retries: 0, timeoutMs: 2000 });

  it('503 unavailable: an HTML page for a navigation, JSON otherwise; the widget’s status 503 too', async () => {
    const browser = context.browser();
    await browser.post<SessionResponseBody>('/identity/session');
    await context.sandbox.close();

    const page = await browser.get('/account', html);
    expect(page.status).toBe(503);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['retry-after']).toBe('30');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.text).toMatch(/We cannot check your identity verification right now/);
    expect(page.text).toMatch(/Error code: UPSTREAM_UNAVAILABLE/);

    const api = await browser.get<{ error: { code: string } }>('/api/data');
    expect(api.status).toBe(503);
    expect(api.json.error.code).toBe('UPSTREAM_UNAVAILABLE');
    const status = await browser.get<{ error: { code: string } }>('/identity/status');
    expect(status.status).toBe(503);
    expect(status.json.error.code).toBe('UPSTREAM_UNAVAILABLE');
  });
});

describe('the API key', () => {
  it('appears in no response (status, header, body) and no log line of this file', () => {
    expect(logLines.length).toBeGreaterThan(0);
    expectKeyNeverLeaked(API_KEY);
  });
});

import { createConnection } from 'node:net';
import { generateWebhookSecret } from '@verify-kit/client';
import type { Browser } from '@verify-kit/testkit';
import { capturingLogger, expectKeyNeverLeaked } from '@verify-kit/testkit';
import { describe, expect, it } from 'vitest';
import type { StatusResponseBody } from '../src/index.js';
import { startApp } from './support/app.js';
import { startVerificationOn, useFakeUpstreamApp } from './support/fixtures.js';

const API_KEY = 'sk_test_security_c0ffee1234';
const SECRET = generateWebhookSecret();
const context = useFakeUpstreamApp(API_KEY, { webhookSecret: SECRET });
const startVerification = (browser: Browser) => startVerificationOn(context.upstream, browser);
type ErrorJson = { error: { code: string; message: string } };
const html = { accept: 'text/html', 'sec-fetch-mode': 'navigate' };

type Refusal = [string, Record<string, string>, string | undefined, number, string];

/** POST /session with `headers` and `body` is refused with `status` and `code`, and starts nothing. */
async function refusesAndCreatesNothing(...[_name, headers, body, status, code]: Refusal) {
  const browser = context.app.browser();
  const created = context.upstream.statuses.size;
  const res = await browser.fetch<ErrorJson>('POST', '/identity/session', {
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body }),
  });
  expect(res.status).toBe(status);
  expect(res.json.error.code).toBe(code);
  expect(context.upstream.statuses.size).toBe(created);
  expect((await browser.get<ErrorJson>('/identity/status')).json.error.code).toBe('NO_VERIFICATION_SESSION');
}

describe('CSRF: cross-site requests to POST /session', () => {
  const crossSite: Refusal[] = [
    ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }, '{}', 403, 'CROSS_SITE_REQUEST'],
    ['Sec-Fetch-Site same-site', { 'sec-fetch-site': 'same-site' }, '{}', 403, 'CROSS_SITE_REQUEST'],
    [
      'a foreign Origin without Fetch Metadata',
      { 'sec-fetch-site': '', origin: 'https://evil.example' },
      '{}',
      403,
      'CROSS_SITE_REQUEST',
    ],
    ['Origin null', { 'sec-fetch-site': '', origin: 'null' }, '{}', 403, 'CROSS_SITE_REQUEST'],
    [
      'a form post',
      { 'content-type': 'application/x-www-form-urlencoded' },
      'restart=true',
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    [
      'text/plain (a "simple" CORS request)',
      { 'content-type': 'text/plain' },
      '{}',
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
  ];

  it.each(crossSite)('refuses %s and creates nothing', refusesAndCreatesNothing);

  it('accepts same-origin requests: Fetch Metadata, a matching Origin, or no browser headers at all', async () => {
    const host = new URL(context.app.url).host;
    const sameOrigin: Record<string, string>[] = [
      { 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': '', origin: `http://${host}` },
      { 'sec-fetch-site': '' },
    ];
    for (const headers of sameOrigin) {
      const res = await context.app.browser().post('/identity/session', {}, headers);
      expect(res.status).toBe(201);
    }
    expect(
      (
        await context.app
          .browser()
          .fetch('POST', '/identity/session', { headers: { 'content-type': 'application/json' } })
      ).status,
    ).toBe(201);
  });
});

describe('bad input on POST /session', () => {
  const badInput: Refusal[] = [
    ['no content type', { 'content-type': '' }, undefined, 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['malformed JSON', { 'content-type': 'application/json' }, '{"restart":', 400, 'INVALID_JSON'],
    [
      'an unknown field',
      { 'content-type': 'application/json' },
      '{"restart":true,"id":"x"}',
      400,
      'INVALID_BODY',
    ],
    [
      'restart of the wrong type',
      { 'content-type': 'application/json' },
      '{"restart":"yes"}',
      400,
      'INVALID_BODY',
    ],
    ['a JSON array', { 'content-type': 'application/json' }, '[]', 400, 'INVALID_BODY'],
    [
      'an oversized body',
      { 'content-type': 'application/json' },
      `{"x":"${'a'.repeat(10_000)}"}`,
      413,
      'PAYLOAD_TOO_LARGE',
    ],
  ];

  it.each(badInput)('refuses %s and creates nothing', refusesAndCreatesNothing);

  // The browser never hands the kit a contact to send to, well-formed or not (issue 26, finding 9).
  it('refuses a contact sent by the browser (a phone number the service would refuse) as bad input, never a 500', () =>
    refusesAndCreatesNothing('', {}, '{"sendTo":{"phoneNumber":"123456"}}', 400, 'INVALID_BODY'));

  it('sessionOptions returning a contact the service would refuse: 500 SESSION_OPTIONS_INVALID, warned once per kit', async () => {
    const lines: string[] = [];
    const misconfigured = await startApp({
      baseUrl: context.upstream.url,
      apiKey: API_KEY,
      logger: capturingLogger(lines),
      sessionOptions: () => ({ phoneNumber: '123456' }),
    });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await misconfigured.browser().post<ErrorJson>('/identity/session');
        expect([res.status, res.json.error.code]).toEqual([500, 'SESSION_OPTIONS_INVALID']);
      }
      expect(lines.filter((line) => line.includes('would refuse: fix sessionOptions'))).toHaveLength(1);
    } finally {
      await misconfigured.close();
    }
  });

  it('answers 405 with Allow to other methods', async () => {
    const res = await context.app.browser().get<ErrorJson>('/identity/session');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.json.error.code).toBe('METHOD_NOT_ALLOWED');
  });
});

describe('GET /status input', () => {
  it.each([
    'wait=31',
    'wait=-1',
    'wait=abc',
    'wait=1.5',
    'wait=1&wait=2',
    'since=done',
    'since=APPROVED',
    'wait=5&since=',
  ])('refuses %s with 400 INVALID_QUERY', async (query) => {
    const browser = context.app.browser();
    await startVerification(browser);
    const res = await browser.get<ErrorJson>(`/identity/status?${query}`);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('INVALID_QUERY');
  });

  it('takes no identification from the client (no IDOR)', async () => {
    const alice = context.app.browser();
    const aliceId = await startVerification(alice);
    context.upstream.statuses.set(aliceId, 'APPROVED');
    const mallory = context.app.browser();
    await startVerification(mallory);
    const res = await mallory.get<StatusResponseBody>(
      `/identity/status?identificationId=${aliceId}&id=${aliceId}`,
    );
    expect(res.json.phase).toBe('awaiting_user');
  });
});

describe('two users', () => {
  it('never see each other’s status', async () => {
    const alice = context.app.browser();
    const bob = context.app.browser();
    const aliceId = await startVerification(alice);
    const bobId = await startVerification(bob);
    const aliceCookieBeforeApproval = alice.cookieHeader;
    context.upstream.statuses.set(aliceId, 'APPROVED');
    context.upstream.statuses.set(bobId, 'REJECTED');
    const [a, b] = await Promise.all([
      alice.get<StatusResponseBody>('/identity/status'),
      bob.get<StatusResponseBody>('/identity/status'),
    ]);
    expect(a.json.phase).toBe('approved');
    expect(b.json.phase).toBe('rejected');
    expect((await alice.get('/api/data')).status).toBe(200);
    expect((await bob.get('/api/data')).status).toBe(403);
    // Alice's pre-approval cookie (fixed by an attacker, say) opens nothing: her session id changed.
    const attacker = context.app.browser();
    attacker.cookies.set('connect.sid', aliceCookieBeforeApproval.replace(/^connect\.sid=/, ''));
    expect(aliceCookieBeforeApproval).not.toBe(alice.cookieHeader);
    expect((await attacker.get('/api/data')).status).toBe(403);
    expect((await attacker.get<{ error: { code: string } }>('/identity/status')).status).toBe(404);
  });
});

describe('open redirects', () => {
  async function redirectFor(rawTarget: string): Promise<string | undefined> {
    // A raw socket: fetch and undici would normalise the request target.
    const { port } = new URL(context.app.url);
    const socket = createConnection(Number(port), '127.0.0.1');
    socket.write(
      `GET ${rawTarget} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/html\r\nConnection: close\r\n\r\n`,
    );
    let text = '';
    for await (const chunk of socket) text += String(chunk);
    expect(text.startsWith('HTTP/1.1 303')).toBe(true);
    return /\r\nLocation: ([^\r]*)/i.exec(text)?.[1];
  }

  it('sends a same-origin returnTo', async () => {
    expect(await redirectFor('/account')).toBe('/verify?returnTo=%2Faccount');
    expect(await redirectFor('/reports/2024?tab=a%20b')).toBe(
      `/verify?returnTo=${encodeURIComponent('/reports/2024?tab=a%20b')}`,
    );
  });

  it.each([
    '//evil.example/x',
    '/\\evil.example/x',
    '/\\/evil.example',
    'http://evil.example/x',
    'https://evil.example@127.0.0.1/',
  ])('drops returnTo for %s', async (target) => {
    expect(await redirectFor(target)).toBe('/verify');
  });

  it('refuses a redirectTo that leaves the site', () => {
    for (const redirectTo of ['//evil.example', 'https://evil.example/verify', '/\\evil.example', 'verify']) {
      expect(() => context.app.kit.requireApproved({ redirectTo })).toThrow(
        /redirectTo must be a path of this site/,
      );
    }
    expect(() => context.app.kit.requireApproved({ maxAgeMs: -1 })).toThrow(/maxAgeMs/);
    expect(() => context.app.kit.requireApproved({ redirect: '/x' } as never)).toThrow(
      /redirect is not an option/,
    );
  });

  it('answers fetch() calls with 403 JSON, not a redirect', async () => {
    const res = await context.app.browser().get<ErrorJson & { status: null; phase: null }>('/account', {
      accept: 'text/html',
      'sec-fetch-mode': 'cors',
    });
    expect(res.status).toBe(403);
    expect(res.json).toEqual({
      error: { code: 'NOT_APPROVED', message: expect.any(String) },
      status: null,
      phase: null,
    });
    expect((await context.app.browser().get('/account', html)).status).toBe(303);
  });
});

describe('a missing express-session', () => {
  it('is a clear SESSION_MIDDLEWARE_MISSING everywhere, and the gate never passes', async () => {
    const bare = await startApp({ baseUrl: context.upstream.url, apiKey: API_KEY }, { withoutSession: true });
    try {
      const browser = bare.browser();
      for (const res of [
        await browser.post<ErrorJson>('/identity/session'),
        await browser.get<ErrorJson>('/identity/status'),
        await browser.get<ErrorJson>('/identity/qr.svg'),
        await browser.get<ErrorJson>('/api/data'),
        await browser.get<ErrorJson>('/account', html),
      ]) {
        expect(res.status).toBe(500);
        expect(res.json.error.code).toBe('SESSION_MIDDLEWARE_MISSING');
        expect(res.json.error.message).toContain('app.use(session({');
        expect(res.json.error.message).toContain("app.use('/identity', kit.router)");
      }
      expect(bare.passed).toBe(0);
      expect((await browser.get<{ code: string }>('/custom')).json.code).toBe('SESSION_MIDDLEWARE_MISSING');
    } finally {
      await bare.close();
    }
  });
});

describe('a wrong API key', () => {
  it('is 502 UPSTREAM_UNAUTHORIZED and the key appears nowhere', async () => {
    const { startSandbox } = await import('@verify-kit/sandbox');
    const sandbox = await startSandbox({ apiKey: 'sk_sandbox_right_key' });
    const wrongKey = 'sk_test_wrong_key_77aa55';
    const wrong = await startApp({ baseUrl: sandbox.url, apiKey: wrongKey });
    try {
      const res = await wrong.browser().post<ErrorJson>('/identity/session');
      expect(res.status).toBe(502);
      expect(res.json.error.code).toBe('UPSTREAM_UNAUTHORIZED');
      expect(res.json.error.message).toMatch(/API key/);
      expectKeyNeverLeaked(wrongKey);
    } finally {
      await wrong.close();
      await sandbox.close();
    }
  });
});

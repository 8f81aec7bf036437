import http from 'node:http';
import { startSandbox } from '@verify-kit/sandbox';
import { CookieJar } from '@verify-kit/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { startDemo } from '../src/start-demo.js';
import { useStandInDemo } from './support/stand-in-demo.js';

/*
 * The demo server over real sockets, with its embedded sandbox: the JSON API's validation and
 * codes, the gate's redirects, cookies and headers. Pages are stand-ins (no Vite build needed).
 */

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, read field by field in assertions
type Json = any;

const seen: string[] = [];

const env = useStandInDemo();

afterAll(() => {
  // Every answer any test received is free of the API key.
  const key = env.demo.sandbox?.apiKey ?? '';
  expect(key.length).toBeGreaterThan(10);
  for (const text of seen) expect(text).not.toContain(key);
});

/** A top-level navigation as a browser sends it (node:http: fetch cannot say sec-fetch-mode: navigate). */
function navigate(
  base: string,
  pathname: string,
  cookie: string,
): Promise<{ status: number; location?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      new URL(pathname, base),
      {
        headers: {
          accept: 'text/html',
          'sec-fetch-mode': 'navigate',
          'sec-fetch-site': 'same-origin',
          cookie,
        },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => {
          seen.push(body);
          resolve({ status: response.statusCode ?? 0, location: response.headers.location, body });
        });
      },
    );
    request.on('error', reject);
  });
}

/** A browser stand-in: one cookie jar, same-origin fetch metadata, every answer recorded. */
function browser(base = () => env.demo.url) {
  const jar = new CookieJar();
  const send = async (
    pathname: string,
    init: { method?: string; json?: unknown; headers?: Record<string, string> } = {},
  ) => {
    const response = await fetch(new URL(pathname, base()), {
      method: init.method ?? 'GET',
      redirect: 'manual',
      headers: {
        'sec-fetch-site': 'same-origin',
        ...(jar.size > 0 ? { cookie: jar.header() ?? '' } : {}),
        ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
    });
    jar.store(response.headers.getSetCookie());
    const text = await response.text();
    seen.push(text, JSON.stringify([...response.headers]));
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    return { status: response.status, headers: response.headers, body: body as Json };
  };
  return Object.assign(send, { cookie: () => jar.header() ?? '' });
}

async function signedIn() {
  const b = browser();
  const res = await b('/api/demo/sign-in', {
    method: 'POST',
    json: { name: 'Ada', email: 'ada@example.com' },
  });
  expect(res.status).toBe(200);
  return b;
}

describe('the demo server: headers and cookies', () => {
  it('sends a strict CSP that frames only the sandbox', async () => {
    const res = await browser()('/');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain(`frame-src ${new URL(env.demo.sandbox!.url).origin}`);
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it('sets an httpOnly, SameSite=Lax session cookie at sign-in, not Secure over plain http', async () => {
    const res = await browser()('/api/demo/sign-in', {
      method: 'POST',
      json: { name: 'Ada', email: 'ada@example.com' },
    });
    const cookie = res.headers.getSetCookie().find((line) => line.startsWith('verify-kit-demo.sid=')) ?? '';
    expect(cookie).toMatch(/^verify-kit-demo\.sid=/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).not.toContain('Secure');
  });
});

describe('the demo server: input', () => {
  it('refuses invalid sign-in input with 400 and the fields at fault', async () => {
    const res = await browser()('/api/demo/sign-in', { method: 'POST', json: { name: ' ', email: 'nope' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_BODY');
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual(['name', 'email']);
  });

  it('refuses cross-site posts, non-JSON bodies and malformed JSON with codes', async () => {
    const b = browser();
    const crossSite = await b('/api/demo/sign-in', {
      method: 'POST',
      json: { name: 'Ada', email: 'ada@example.com' },
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect([crossSite.status, crossSite.body.error.code]).toEqual([403, 'CROSS_SITE_REQUEST']);

    const form = await b('/api/demo/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect([form.status, form.body.error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);

    const response = await fetch(new URL('/api/demo/sign-in', env.demo.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: '{"name":',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('INVALID_JSON');
  });
});

describe('the demo server: the scenario', () => {
  it('keeps the scenario per session, validated, and only for signed-in people', async () => {
    const anonymous = await browser()('/api/demo/scenario', { method: 'PUT', json: {} });
    expect([anonymous.status, anonymous.body.error.code]).toEqual([401, 'SIGN_IN_REQUIRED']);

    const b = await signedIn();
    const invalid = await b('/api/demo/scenario', {
      method: 'PUT',
      json: { contact: 'none', sendOTP: true, locale: 'en', duration: 30, approvalCriteria: [] },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details[0].path).toBe('sendOTP');

    const badCriterion = await b('/api/demo/scenario', {
      method: 'PUT',
      json: {
        contact: 'email',
        sendOTP: false,
        locale: 'fr',
        duration: 30,
        approvalCriteria: [{ type: 'DOCUMENT_OWNER_NAME', condition: 'LIKE', value: 'x' }],
      },
    });
    expect(badCriterion.status).toBe(400);
    expect(badCriterion.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      'approvalCriteria.0.condition',
      'locale',
    ]);

    const scenario = {
      contact: 'phone',
      phoneNumber: '+90 555 010 00 00',
      sendOTP: true,
      locale: 'tr',
      duration: 5,
      approvalCriteria: [
        { type: 'DOCUMENT_OWNER_NAME', condition: 'EQUALS', value: 'seyma', accentInsensitive: true },
      ],
    };
    expect((await b('/api/demo/scenario', { method: 'PUT', json: scenario })).status).toBe(200);
    expect((await b('/api/demo/me')).body.scenario).toEqual(scenario);
  });

  it('words each refused field of the scenario in plain words, not zod’s', async () => {
    const b = await signedIn();
    const refused = await b('/api/demo/scenario', {
      method: 'PUT',
      json: {
        contact: 'email',
        sendOTP: false,
        locale: 'fr',
        duration: null, // what JSON makes of NaN: a duration field left blank or unreadable
        approvalCriteria: [{ type: 'DOCUMENT_OWNER_NAME', condition: 'EQUALS', value: ' ' }],
      },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([
      { path: 'locale', message: 'choose one of: en, tr, de, ar' },
      { path: 'duration', message: 'enter the duration as a whole number of minutes' },
    ]);
    const tooShort = await b('/api/demo/scenario', {
      method: 'PUT',
      json: {
        contact: 'email',
        sendOTP: false,
        locale: 'en',
        duration: 0,
        approvalCriteria: [{ type: 'DOCUMENT_OWNER_NAME', condition: 'EQUALS', value: ' ' }],
      },
    });
    expect(tooShort.body.error.details).toEqual([
      { path: 'duration', message: 'enter at least 1 minute' },
      { path: 'approvalCriteria.0.value', message: 'enter the value the field is compared with' },
    ]);
  });
});

describe('the demo server: pages and API', () => {
  it('sends people who are not signed in to the sign-in page, and unverified ones to /verify', async () => {
    const anonymous = await browser()('/account', { headers: { accept: 'text/html' } });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe('/?returnTo=%2Faccount');

    const b = await signedIn();
    // fetch() always says sec-fetch-mode: cors; a navigation is sent the way a browser sends it.
    const unverified = await navigate(env.demo.url, '/account', b.cookie());
    expect(unverified.status).toBe(303);
    expect(unverified.location).toBe('/verify?returnTo=%2Faccount');
    const api = await b('/api/demo/account');
    expect([api.status, api.body.error.code]).toEqual([403, 'NOT_APPROVED']);
  });

  it('gives the simulator address of the bound session only, and no session before one exists', async () => {
    const b = await signedIn();
    const before = await b('/api/demo/simulator-url');
    expect([before.status, before.body.error.code]).toEqual([404, 'NO_SESSION']);

    const created = await b('/identity/session', { method: 'POST', json: {} });
    expect(created.status).toBe(201);
    const after = await b('/api/demo/simulator-url');
    expect(after.status).toBe(200);
    const url = new URL(after.body.url);
    expect(url.origin).toBe(new URL(env.demo.sandbox!.url).origin);
    expect(url.pathname).toMatch(/^\/app\/verification-session\/[0-9a-f-]{36}$/);
    expect(created.body.deepLink.endsWith(url.pathname.replace('/app', ''))).toBe(true);
  });

  it('records the webhooks the kit accepted, and nothing of unsigned posts', async () => {
    const b = await signedIn();
    await b('/identity/session', { method: 'POST', json: {} });
    await expect
      .poll(async () =>
        (await b('/api/demo/activity')).body.entries.filter((e: { kind: string }) => e.kind === 'webhook'),
      )
      .toContainEqual(expect.objectContaining({ type: 'identification.created' }));
  });

  it('answers unknown API paths with JSON and unknown pages with the not-found page', async () => {
    const api = await browser()('/api/nothing');
    expect([api.status, api.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const page = await browser()('/nothing', { headers: { accept: 'text/html' } });
    expect([page.status, page.body]).toEqual([404, '<h1>notFound</h1>']);
  });

  it('signs out: the session and its verification are gone', async () => {
    const b = await signedIn();
    expect((await b('/api/demo/sign-out', { method: 'POST', json: {} })).status).toBe(204);
    expect((await b('/api/demo/me')).body.user).toBeNull();
    expect((await b('/identity/session', { method: 'POST', json: {} })).status).toBe(401);
  });
});

describe('the service down', () => {
  it('the gated page is the demo’s own unavailable page (503), the gated API and the reviewer API a 503 JSON error', async () => {
    const own = await startDemo({ port: 0, reviewDelayMs: 0, publicDir: env.demo.publicDir });
    try {
      const b = browser(() => own.url);
      expect(
        (await b('/api/demo/sign-in', { method: 'POST', json: { name: 'Ada', email: 'a@b.co' } })).status,
      ).toBe(200);
      expect((await b('/identity/session', { method: 'POST', json: {} })).status).toBe(201);
      await own.sandbox?.close();

      const page = await navigate(own.url, '/account', b.cookie());
      expect([page.status, page.body]).toEqual([503, '<h1>unavailable</h1>']);
      const api = await b('/api/demo/account');
      expect(api.status).toBe(503);
      expect(api.body.error.code).toMatch(/^UPSTREAM_/);
      // The reviewer buttons' API reads the verification first: the same 503, not a 500.
      const review = await b('/api/demo/review', { method: 'POST', json: { decision: 'APPROVED' } });
      expect([review.status, review.body.error.code]).toEqual([503, expect.stringMatching(/^UPSTREAM_/)]);
    } finally {
      await own.close();
    }
  });
});

describe('the demo against a real service (IDV_BASE_URL)', () => {
  it('shows no simulator and frames nothing', async () => {
    const service = await startSandbox({ reviewDelayMs: 0 });
    const remote = await startDemo({
      port: 0,
      publicDir: env.demo.publicDir,
      upstream: { baseUrl: service.url, apiKey: service.apiKey },
    });
    try {
      expect(remote.sandbox).toBeUndefined();
      const b = browser(() => remote.url);
      expect((await b('/')).headers.get('content-security-policy')).toContain("frame-src 'none'");
      expect((await b('/api/demo/me')).body.upstream).toEqual({ kind: 'service', simulator: false });
      await b('/api/demo/sign-in', { method: 'POST', json: { name: 'Ada', email: 'ada@example.com' } });
      const created = await b('/identity/session', { method: 'POST', json: {} });
      expect(created.status).toBe(201);
      const simulator = await b('/api/demo/simulator-url');
      expect([simulator.status, simulator.body.error.code]).toEqual([404, 'NO_SIMULATOR']);
      // Its reviewers decide: the demo's reviewer buttons have nothing to call.
      const review = await b('/api/demo/review', { method: 'POST', json: { decision: 'APPROVED' } });
      expect([review.status, review.body.error.code]).toEqual([404, 'NO_SIMULATOR']);
      for (const text of seen) expect(text).not.toContain(service.apiKey);
    } finally {
      await remote.close();
      await service.close();
    }
  });
});

describe('behind an HTTPS reverse proxy (TRUST_PROXY)', () => {
  it('marks the session cookie Secure', async () => {
    const proxied = await startDemo({ port: 0, publicDir: env.demo.publicDir, trustProxy: '1' });
    try {
      const res = await fetch(new URL('/api/demo/sign-in', proxied.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
        body: JSON.stringify({ name: 'Ada', email: 'ada@example.com' }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('set-cookie')).toContain('Secure');
    } finally {
      await proxied.close();
    }
  });
});

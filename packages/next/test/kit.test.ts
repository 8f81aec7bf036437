import { randomBytes, randomUUID } from 'node:crypto';
import { signWebhook } from '@verify-kit/client';
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { NextRequest } from 'next/server.js';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { submitDocument, waitForStatus } from '../../express/test/support/sandbox.js';
import { createVerifyKit, type VerifyKit, type VerifyKitOptions } from '../src/index.js';

// The shell over core, without Next.js running: its route handlers, proxy gate and server-code
// helpers called as Next.js calls them, against the real sandbox. `next/headers` is Next's
// request scope: here a stand-in that serves this test's headers and records cookies().set.
const scope = vi.hoisted(() => ({
  headers: new Headers(),
  set: [] as Array<Record<string, unknown>>,
  readOnly: false,
}));
vi.mock('next/headers.js', () => ({
  headers: async () => scope.headers,
  cookies: async () => ({
    set(cookie: Record<string, unknown>) {
      if (scope.readOnly) throw new Error('Cookies can only be modified in a Server Action or Route Handler');
      scope.set.push(cookie);
    },
  }),
}));

const ORIGIN = 'http://shop.test';
const webhookSecret = `whsec_${randomBytes(32).toString('base64')}`;
let sandbox: Sandbox;
const kits: VerifyKit[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, reviewDelayMs: 0 });
});

afterEach(async () => {
  vi.unstubAllEnvs();
  scope.headers = new Headers();
  scope.set = [];
  scope.readOnly = false;
  await Promise.all(kits.splice(0).map((kit) => kit.close()));
});

afterAll(async () => {
  await sandbox?.close();
});

function options(extra: Partial<VerifyKitOptions> = {}): VerifyKitOptions {
  return {
    baseUrl: sandbox.url,
    apiKey: sandbox.apiKey,
    workflowId: 'default',
    webhookSecret,
    secret: 'a-test-secret-of-at-least-32-characters!',
    ...extra,
  };
}

function kitOf(extra: Partial<VerifyKitOptions> = {}): VerifyKit {
  const kit = createVerifyKit(options(extra));
  kits.push(kit);
  return kit;
}

/** A browser's cookie header, kept from the answers' Set-Cookie lines. */
class Jar {
  cookies = new Map<string, string>();
  take(response: Response): Response {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const [name = '', value = ''] = pair.split('=');
      if (value === '' || /Max-Age=0/.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }
  get header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

function request(path: string, init: RequestInit & { jar?: Jar } = {}): Request {
  const headers = new Headers(init.headers);
  headers.set('sec-fetch-site', 'same-origin');
  if (init.jar !== undefined && init.jar.header !== '') headers.set('cookie', init.jar.header);
  if (init.method === 'POST' && init.body === undefined) {
    headers.set('content-type', 'application/json');
    return new Request(`${ORIGIN}${path}`, { ...init, headers, body: '{}' });
  }
  return new Request(`${ORIGIN}${path}`, { ...init, headers });
}

/** The service's signed webhook: the identification was rejected (an approval revoked). */
function revocation(identificationId: string): Request {
  const id = `msg_${randomUUID()}`;
  const timestamp = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({
    type: 'identification.rejected',
    timestamp: new Date(timestamp * 1000).toISOString(),
    data: { verificationSessionId: randomUUID(), identificationId, status: 'REJECTED' },
  });
  return new Request(`${ORIGIN}/identity/webhook`, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook({ secret: webhookSecret, id, timestamp, body }),
    },
  });
}

const navigation = (path: string, jar: Jar) =>
  new NextRequest(request(path, { jar, headers: { accept: 'text/html', 'sec-fetch-mode': 'navigate' } }));

/** An anonymous visitor through approval: their cookie jar, session code and identification. */
async function approvedVisitor(kit: VerifyKit) {
  const jar = new Jar();
  const created = jar.take(await kit.handlers.POST(request('/identity/session', { method: 'POST', jar })));
  expect(created.status).toBe(201);
  const { sessionCode } = (await created.json()) as { sessionCode: string };
  const { identificationId } = await submitDocument(sandbox, sessionCode);
  await waitForStatus(sandbox, identificationId, 'APPROVED');
  return { jar, identificationId };
}

describe('handlers', () => {
  test('GET, HEAD and POST serve the protocol under /identity; elsewhere 404 ROUTE_NOT_FOUND, never a guess', async () => {
    const kit = kitOf();
    const jar = new Jar();
    expect(kit.handlers.GET).toBe(kit.handlers.POST);
    const created = jar.take(await kit.handlers.POST(request('/identity/session', { method: 'POST', jar })));
    expect(created.status).toBe(201);
    expect(jar.cookies.has('vk_visitor')).toBe(true);
    const status = await kit.handlers.GET(request('/identity/status', { jar }));
    expect(await status.json()).toMatchObject({ phase: 'awaiting_user' });
    const head = await kit.handlers.HEAD(request('/identity/status', { method: 'HEAD', jar }));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    for (const path of ['/elsewhere/session', '/identity', '/identityx/session', '/identity/nothing']) {
      const answer = await kit.handlers.GET(request(path));
      expect(answer.status, path).toBe(404);
      expect(await answer.json()).toMatchObject({ error: { code: 'ROUTE_NOT_FOUND' } });
    }
  });

  test('basePath moves the routes (the folder of the route file)', async () => {
    const kit = kitOf({ basePath: '/kyc' });
    expect((await kit.handlers.POST(request('/kyc/session', { method: 'POST' }))).status).toBe(201);
    expect((await kit.handlers.POST(request('/identity/session', { method: 'POST' }))).status).toBe(404);
  });

  test("a long-poll is held, and released as soon as the client leaves (the request's signal)", async () => {
    const kit = kitOf();
    const jar = new Jar();
    jar.take(await kit.handlers.POST(request('/identity/session', { method: 'POST', jar })));
    const leaving = new AbortController();
    const started = performance.now();
    const answer = kit.handlers.GET(
      request('/identity/status?wait=20&since=awaiting_user', { jar, signal: leaving.signal }),
    );
    const early = await Promise.race([answer.then(() => 'answered'), wait(300).then(() => 'held')]);
    expect(early).toBe('held');
    leaving.abort();
    await answer;
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});

describe('requireApproved (the proxy)', () => {
  test('refused: the gate answers 303 to an absolute redirectTo (Next.js wants one) and 403 JSON otherwise', async () => {
    const kit = kitOf();
    const gate = kit.requireApproved({ redirectTo: '/verify' });
    const refused = await gate(navigation('/account/settings?tab=1', new Jar()));
    expect(refused.status).toBe(303);
    expect(refused.headers.get('location')).toBe(`${ORIGIN}/verify?returnTo=%2Faccount%2Fsettings%3Ftab%3D1`);
    const api = await gate(new NextRequest(request('/account', { headers: { accept: 'application/json' } })));
    expect(api.status).toBe(403);
    expect(await api.json()).toMatchObject({ error: { code: 'NOT_APPROVED' } });
  });

  test('granted: NextResponse.next() with the moved cookie on the answer and on the request passed on', async () => {
    const kit = kitOf();
    const { jar } = await approvedVisitor(kit);
    const before = jar.cookies.get('vk_visitor');
    const gate = kit.requireApproved({ redirectTo: '/verify' });
    const granted = await gate(navigation('/account', jar));
    expect(granted.status).toBe(200);
    expect(granted.headers.get('x-middleware-next')).toBe('1');
    jar.take(granted);
    const after = jar.cookies.get('vk_visitor');
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    // The page after the proxy sees the cookie the browser will send from now on.
    expect(granted.headers.get('x-middleware-request-cookie')).toBe(`vk_visitor=${after}`);
    // And the next visit's requests are granted from the stored decision.
    const again = await gate(navigation('/account', jar));
    expect(again.headers.get('x-middleware-next')).toBe('1');
  });

  test('a verified webhook received by the route handler refuses in the gate at once', async () => {
    const kit = kitOf();
    const { jar, identificationId } = await approvedVisitor(kit);
    const gate = kit.requireApproved({ redirectTo: '/verify' });
    jar.take(await gate(navigation('/account', jar)));
    const delivered = await kit.handlers.POST(revocation(identificationId));
    expect(delivered.status).toBeLessThan(300);
    expect((await gate(navigation('/account', jar))).status).toBe(303);
  });
});

describe('one kit per process, whatever Next.js bundles apart', () => {
  test('another evaluation of lib/verify-kit.ts (another bundle: a module instance of its own) gets the same kit', async () => {
    // What Next.js does: the proxy's bundle and the route handlers' each hold their own copy of the
    // package (core included) and evaluate lib/verify-kit.ts once each. Here: every module anew.
    vi.resetModules();
    const other = await import('../src/index.js');
    expect(other.createVerifyKit).not.toBe(createVerifyKit);
    const routes = kitOf();
    const proxy = other.createVerifyKit(options());
    kits.push(proxy);
    const { jar } = await approvedVisitor(routes);
    const granted = await proxy.requireApproved()(navigation('/account', jar));
    expect(granted.headers.get('x-middleware-next')).toBe('1');
  });

  test('other options under the same basePath (next dev reloading the file) replace the kit for every bundle', async () => {
    const first = kitOf();
    const { jar } = await approvedVisitor(first);
    const reloaded = kitOf({ freshness: 'every-request' });
    // The first facade now reaches the new kit (a read on every request): its memory starts empty,
    // and the visitor's cookie, which carries the verification, still lets the verified person in.
    const granted = await first.requireApproved()(navigation('/account', jar));
    expect(granted.headers.get('x-middleware-next')).toBe('1');
    const created = await reloaded.handlers.POST(request('/identity/session', { method: 'POST' }));
    expect(created.status).toBe(201);
  });

  test('kits of two basePaths are two kits', async () => {
    const one = kitOf();
    const two = kitOf({ basePath: '/kyc' });
    const { jar } = await approvedVisitor(one);
    expect((await one.requireApproved()(navigation('/account', jar))).headers.get('x-middleware-next')).toBe(
      '1',
    );
    // Closing one leaves the other serving: the cookie carries the verification to it.
    await one.close();
    expect((await two.requireApproved()(navigation('/account', jar))).headers.get('x-middleware-next')).toBe(
      '1',
    );
  });
});

describe('options', () => {
  test('a wrong option throws at createVerifyKit, naming it', () => {
    expect(() => createVerifyKit({ ...options(), baseUrl: undefined as unknown as string })).toThrow(
      /baseUrl is required/,
    );
    expect(() => createVerifyKit({ ...options(), secret: undefined as unknown as string })).toThrow(
      /secret is required/,
    );
    expect(() => createVerifyKit({ ...options(), basePath: 'identity' })).toThrow(/basePath must start/);
  });

  test('while `next build` collects the app, nothing is checked or made (a build needs no secrets)', async () => {
    vi.stubEnv('NEXT_PHASE', 'phase-production-build');
    const kit = createVerifyKit({ ...options(), apiKey: undefined as unknown as string, basePath: '/build' });
    vi.unstubAllEnvs();
    await expect(kit.handlers.POST(request('/build/session', { method: 'POST' }))).rejects.toThrow(
      /apiKey is required/,
    );
  });

  test('accountOf is given the Request', async () => {
    const seen: unknown[] = [];
    const kit = kitOf({
      accountOf: (req) => {
        seen.push(req);
        return req.headers.get('cookie')?.match(/session=(\w+)/)?.[1];
      },
    });
    const created = await kit.handlers.POST(
      request('/identity/session', { method: 'POST', headers: { cookie: 'session=ada' } }),
    );
    expect(created.status).toBe(201);
    expect(seen[0]).toBeInstanceOf(Request);
    const status = await kit.handlers.GET(
      request('/identity/status', { headers: { cookie: 'session=ada' } }),
    );
    expect(status.status).toBe(200);
    const other = await kit.handlers.GET(request('/identity/status', { headers: { cookie: 'session=bob' } }));
    expect(other.status).toBe(404);
  });

  test('without clientAddress, one warning at startup in production; none with a reader of its own, none in development', () => {
    const lines: string[] = [];
    const logger = { warn: (line: string) => lines.push(line) };
    vi.stubEnv('NODE_ENV', 'production');
    kitOf({ logger, basePath: '/a' });
    expect(lines).toEqual([expect.stringMatching(/client address is unknown.*one shared bucket/)]);
    kitOf({
      logger,
      basePath: '/b',
      clientAddress: (request) => request.headers.get('x-real-ip') ?? undefined,
    });
    vi.stubEnv('NODE_ENV', 'development');
    kitOf({ logger, basePath: '/c' });
    expect(lines).toHaveLength(1);
  });
});

describe('statusOf() and forget() in server code (headers() and cookies())', () => {
  test("statusOf reads this request's verification; forget unbinds it and clears the cookie through cookies().set", async () => {
    const kit = kitOf();
    const { jar } = await approvedVisitor(kit);
    jar.take(await kit.requireApproved()(navigation('/account', jar)));
    scope.headers = new Headers({ cookie: jar.header, host: 'shop.test', 'x-forwarded-proto': 'http' });
    expect(await kit.statusOf()).toMatchObject({ status: 'APPROVED', phase: 'approved', approved: true });
    await kit.forget();
    expect(scope.set).toEqual([
      expect.objectContaining({
        name: 'vk_visitor',
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: false,
      }),
    ]);
    expect(await kit.statusOf()).toMatchObject({ status: null, approved: false });
    expect((await kit.requireApproved()(navigation('/account', jar))).status).toBe(403);
  });

  test('in a Server Component (cookies read-only) forget throws COOKIE_NOT_WRITABLE, naming where to call it', async () => {
    const kit = kitOf();
    const { jar } = await approvedVisitor(kit);
    jar.take(await kit.requireApproved()(navigation('/account', jar)));
    scope.headers = new Headers({ cookie: jar.header, host: 'shop.test' });
    scope.readOnly = true;
    await expect(kit.forget()).rejects.toMatchObject({
      code: 'COOKIE_NOT_WRITABLE',
      message: expect.stringMatching(/Server Action or a route handler/),
    });
  });

  test('in a Server Component statusOf moves nothing: an approval seen there first is not lost (the gate moves it later)', async () => {
    const kit = kitOf();
    const { jar } = await approvedVisitor(kit);
    scope.headers = new Headers({ cookie: jar.header, host: 'shop.test' });
    scope.readOnly = true;
    expect(await kit.statusOf()).toMatchObject({ status: 'APPROVED', approved: true });
    expect(scope.set).toEqual([]);
    const granted = await kit.requireApproved()(navigation('/account', jar));
    expect(granted.headers.get('x-middleware-next')).toBe('1');
    expect(granted.headers.getSetCookie()).toHaveLength(1);
  });
});

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

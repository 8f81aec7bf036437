// One protocol, two doors: the Express kit (its router under /identity, express-session) and core's
// Fetch door (kit.handle served by a Node bridge, basePath /identity), each on its own real
// sandbox, are driven through the same sequences over real HTTP and must answer alike: status,
// the headers the widget and caches read, and the JSON once ids, codes, links, times and QR
// images are placeholders. Cookie names differ by design (connect.sid + vk_binding, vk_visitor):
// what is compared is what the widget relies on (a cookie is set, HttpOnly, Path=/; kept, it
// continues the verification). A path the kit does not know is the Express app's own 404 there, so
// it is left out here; fetch-door.test.ts covers the Fetch door's ROUTE_NOT_FOUND.
import { generateWebhookSecret } from '@verify-kit/client';
import type { SessionResponseBody, StatusResponseBody } from '@verify-kit/protocol';
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import {
  Browser,
  type BrowserResponse,
  capturingLogger,
  deliverWebhook,
  expectKeyNeverLeaked,
  fromAddress,
  serveFetch,
  until,
} from '@verify-kit/testkit';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp } from '../../express/test/support/app.js';
import { openByCode, submitDocument, waitForStatus } from '../../express/test/support/sandbox.js';
import { createVerifyKit, type VerifyKitOptions } from '../src/index.js';

const API_KEY = 'sk_test_parity_5d0c2e8a41';
const COOKIE_SECRET = 'parity-test-cookie-secret-0123456789abcdef';
const WEBHOOK_SECRET = generateWebhookSecret();

/** The options both kits get (the rest: each door's defaults, equal by design). */
type SharedOptions = Pick<
  VerifyKitOptions,
  'webhookSecret' | 'pollIntervalMs' | 'longPoll' | 'sessionLimit'
> & {
  /** Ignores its request (an Express one, or a Fetch Request): fits both kits. */
  sessionOptions?: () => Promise<{ sendOTP: boolean }>;
};

interface Door {
  name: 'express' | 'fetch';
  url: string;
  sandbox: Sandbox;
  /** A new browser; `from`: its connections' source address (127.0.0.x), default 127.0.0.1. */
  browser(from?: string): Browser;
  close(): Promise<void>;
}

function door(name: Door['name'], url: string, sandbox: Sandbox, closeServer: () => Promise<void>): Door {
  const agents: ReturnType<typeof fromAddress>[] = [];
  return {
    name,
    url,
    sandbox,
    browser(from) {
      if (from === undefined) return new Browser(url);
      const dispatcher = fromAddress(from);
      agents.push(dispatcher);
      return new Browser(url, undefined, { dispatcher });
    },
    async close() {
      await Promise.all(agents.map((agent) => agent.close()));
      await closeServer();
      await sandbox.close();
    },
  };
}

async function expressDoor(options: SharedOptions): Promise<Door> {
  const sandbox = await startSandbox({ apiKey: API_KEY, reviewDelayMs: 0 });
  const app = await startApp({ baseUrl: sandbox.url, apiKey: API_KEY, ...options });
  return door('express', app.url, sandbox, () => app.close());
}

async function fetchDoor(options: SharedOptions): Promise<Door> {
  const sandbox = await startSandbox({ apiKey: API_KEY, reviewDelayMs: 0 });
  const kit = createVerifyKit({
    baseUrl: sandbox.url,
    apiKey: API_KEY,
    workflowId: 'default',
    basePath: '/identity',
    secret: COOKIE_SECRET,
    logger: capturingLogger(),
    ...options,
  });
  const server = await serveFetch((request, context) => kit.handle(request, context));
  return door('fetch', server.url, sandbox, async () => {
    await kit.close();
    await server.close();
  });
}

/** Both doors with the same options, for the tests of the enclosing describe. */
function useDoors(options: SharedOptions) {
  const doors = {} as { express: Door; fetch: Door };
  beforeAll(async () => {
    [doors.express, doors.fetch] = await Promise.all([expressDoor(options), fetchDoor(options)]);
  });
  afterAll(async () => {
    await Promise.all([doors.express?.close(), doors.fetch?.close()]);
  });
  return doors;
}

/** Runs `sequence` on each door in turn and expects the same record; returns it. */
async function alike<T>(doors: { express: Door; fetch: Door }, sequence: (door: Door) => Promise<T>) {
  const express = await sequence(doors.express);
  const fetch = await sequence(doors.fetch);
  expect(fetch).toEqual(express);
  return express;
}

const ISO_TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/** Fields whose value is the session's own (a code, a picture): equal only to themselves. */
const OPAQUE: Record<string, string> = { sessionCode: '<code>', qrImage: '<qr image>' };

/**
 * A JSON answer with what differs between two runs as placeholders: the sandbox's address, ids,
 * timestamps, the QR URL's version, the session code and the QR image.
 */
function normalize(value: unknown, sandboxUrl: string): unknown {
  if (Array.isArray(value)) return value.map((item) => normalize(item, sandboxUrl));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        typeof item === 'string' && key in OPAQUE ? OPAQUE[key] : normalize(item, sandboxUrl),
      ]),
    );
  }
  if (typeof value !== 'string') return value;
  return value
    .split(sandboxUrl)
    .join('<sandbox>')
    .replace(ISO_TIME, '<time>')
    .replace(UUID, '<id>')
    .replace(/([?&]v=)[\w-]+/, '$1<v>');
}

const COMPARED = [
  'content-type',
  'cache-control',
  'allow',
  'retry-after',
  'location',
  'x-content-type-options',
  'content-security-policy',
] as const;

/** What the widget (and a cache) sees of one answer, comparable across doors. */
function seen(res: BrowserResponse, door: Door) {
  const headers: Record<string, string> = {};
  for (const name of COMPARED) {
    const value = res.headers[name];
    if (typeof value !== 'string') continue;
    // Seconds that count down (a cache's lifetime, a limit's window) as their shape; a 1 exactly.
    headers[name] = value.replace(/max-age=\d+/, 'max-age=<s>').replace(/^(?!1$)\d+$/, '<s>');
  }
  const cookies = [res.headers['set-cookie'] ?? []].flat();
  const type = headers['content-type'] ?? '';
  return {
    status: res.status,
    headers,
    body:
      type.startsWith('application/json') && res.text !== ''
        ? normalize(res.json, door.sandbox.url)
        : res.text.slice(0, 5),
    // What the widget relies on: set or cleared, and never readable by script, for the whole site.
    cookies: [...new Set(cookies.map((line) => (/max-age=0/i.test(line) ? 'cleared' : 'set')))].sort(),
    cookiesHttpOnlyRootPath: cookies.every(
      (line) => /;\s*HttpOnly/i.test(line) && /;\s*Path=\/(;|$)/.test(line),
    ),
  };
}

const qrSvgOf = (deepLink: string) =>
  QRCode.toString(deepLink, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });

/** The creation's hold: while `hold` is pending, every creation waits in sessionOptions. */
const creations = { started: 0, hold: undefined as Promise<void> | undefined };
async function heldSessionOptions() {
  creations.started++;
  await creations.hold;
  return { sendOTP: false };
}

function holdCreations(): () => void {
  let release = () => {};
  creations.hold = new Promise((resolve) => {
    release = resolve;
  });
  return () => {
    creations.hold = undefined;
    release();
  };
}

afterAll(() => expectKeyNeverLeaked(API_KEY));

describe('the widget protocol: both doors answer alike', () => {
  const doors = useDoors({
    webhookSecret: WEBHOOK_SECRET,
    // Only a webhook wakes a long-poll quickly: a waiting long-poll re-reads once a minute.
    pollIntervalMs: 60_000,
    sessionOptions: heldSessionOptions,
  });

  it('creates, reuses, restarts, reads the status and draws the QR', async () => {
    const record = await alike(doors, async (door) => {
      const browser = door.browser();
      const created = await browser.post<SessionResponseBody>('/identity/session', {});
      const reused = await browser.post<SessionResponseBody>('/identity/session', {});
      const restarted = await browser.post<SessionResponseBody>('/identity/session', { restart: true });
      const status = await browser.get<StatusResponseBody>('/identity/status');
      const head = await browser.fetch('HEAD', '/identity/status');
      const qr = await browser.get(restarted.json.qrCodeUrl);
      const { qrImage, deepLink } = restarted.json;
      return {
        created: seen(created, door),
        reused: seen(reused, door),
        restarted: seen(restarted, door),
        status: seen(status, door),
        head: seen(head, door),
        qr: seen(qr, door),
        reusedIsTheSameSession:
          reused.json.sessionCode === created.json.sessionCode &&
          reused.json.qrCodeUrl === created.json.qrCodeUrl,
        restartIsANewSession:
          restarted.json.sessionCode !== created.json.sessionCode &&
          restarted.json.qrCodeUrl !== created.json.qrCodeUrl,
        statusIsTheRestartedOne: status.json.expiresAt === restarted.json.expiresAt,
        qrIsTheDeepLink: qr.text === (await qrSvgOf(deepLink)),
        qrImageIsTheSamePicture:
          decodeURIComponent(qrImage.slice('data:image/svg+xml,'.length)) ===
          qr.text.trim().replace(/"/g, "'"),
        qrMaxAgeIsTheSessionsLife:
          Number(/max-age=(\d+)/.exec(String(qr.headers['cache-control']))?.[1]) > 1700,
      };
    });
    expect(record.created).toMatchObject({
      status: 201,
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
      body: {
        sessionCode: '<code>',
        deepLink: 'idv://app-url/<sandbox>/verification-session/<id>',
        qrCodeUrl: '/identity/qr.svg?v=<v>',
        qrImage: '<qr image>',
        sessionPageLink: '<sandbox>/public/verification-sessions/<id>',
        expiresAt: '<time>',
        status: 'IN_AUTOMATIC_REVIEW',
        phase: 'awaiting_user',
        sendLink: [],
      },
      cookies: ['set'],
      cookiesHttpOnlyRootPath: true,
    });
    expect(record.reused.cookies).toEqual([]);
    expect(record.status).toMatchObject({ status: 200, cookies: [] });
    expect(record.head).toMatchObject({ status: 200, body: '' });
    expect(record.qr).toMatchObject({
      status: 200,
      headers: { 'content-type': 'image/svg+xml; charset=utf-8', 'cache-control': 'private, max-age=<s>' },
      body: '<svg ',
    });
    expect(Object.values(record).filter((value) => typeof value === 'boolean')).not.toContain(false);
  });

  it('after approval: the status reads approved and POST /session answers the approved session', async () => {
    const record = await alike(doors, async (door) => {
      const browser = door.browser();
      const created = await browser.post<SessionResponseBody>('/identity/session');
      const { identificationId } = await submitDocument(door.sandbox, created.json.sessionCode, 'approve');
      await waitForStatus(door.sandbox, identificationId, 'APPROVED');
      const status = await browser.get('/identity/status');
      const again = await browser.post<SessionResponseBody>('/identity/session', { restart: true });
      const statusAfter = await browser.get('/identity/status');
      return {
        status: seen(status, door),
        again: seen(again, door),
        statusAfter: seen(statusAfter, door),
        neverReplaced: again.json.sessionCode === created.json.sessionCode,
      };
    });
    expect(record.status).toMatchObject({ status: 200, body: { status: 'APPROVED', phase: 'approved' } });
    expect(record.again).toMatchObject({ status: 201, body: { phase: 'approved' } });
    // GET /status is read-only; the approval moves the browser session (fixation) on POST /session.
    expect([record.status.cookies, record.again.cookies, record.statusAfter.cookies]).toEqual([
      [],
      ['set'],
      [],
    ]);
    expect(record.neverReplaced).toBe(true);
  });

  it('a long-poll is woken by the signed webhook that follows the sandbox’s change', async () => {
    const record = await alike(doors, async (door) => {
      const browser = door.browser();
      const created = await browser.post<SessionResponseBody>('/identity/session');
      const { identificationId } = await openByCode(door.sandbox, created.json.sessionCode);
      const polling = browser.get<StatusResponseBody>('/identity/status?wait=5&since=awaiting_user');
      await new Promise((resolve) => setTimeout(resolve, 300)); // the long-poll is held
      await submitDocument(door.sandbox, created.json.sessionCode, 'manual_review');
      await waitForStatus(door.sandbox, identificationId, 'IN_MANUAL_REVIEW');
      const webhookAt = Date.now();
      const webhook = await deliverWebhook(door.browser(), {
        secret: WEBHOOK_SECRET,
        identificationId,
        type: 'identification.in_manual_review',
        status: 'IN_MANUAL_REVIEW',
      });
      const answered = await polling;
      return {
        webhook: seen(webhook, door),
        answered: seen(answered, door),
        wokenByTheWebhook: Date.now() - webhookAt < 2000,
      };
    });
    expect(record.webhook.status).toBe(204);
    expect(record.answered).toMatchObject({
      status: 200,
      body: { status: 'IN_MANUAL_REVIEW', phase: 'in_manual_review', expiresAt: '<time>' },
    });
    expect(record.wokenByTheWebhook).toBe(true);
  });

  it('404 NO_VERIFICATION_SESSION to a browser without a verification', async () => {
    const record = await alike(doors, async (door) => {
      const browser = door.browser();
      return {
        status: seen(await browser.get('/identity/status'), door),
        longPoll: seen(await browser.get('/identity/status?wait=5&since=awaiting_user'), door),
        qr: seen(await browser.get('/identity/qr.svg'), door),
      };
    });
    for (const answer of Object.values(record)) {
      expect(answer).toMatchObject({ status: 404, body: { error: { code: 'NO_VERIFICATION_SESSION' } } });
    }
  });

  it('405 with Allow for a method a route does not answer', async () => {
    const record = await alike(doors, async (door) => {
      const browser = door.browser();
      return {
        getSession: seen(await browser.get('/identity/session'), door),
        postStatus: seen(await browser.post('/identity/status'), door),
        putQr: seen(await browser.fetch('PUT', '/identity/qr.svg'), door),
        getWebhook: seen(await browser.get('/identity/webhook'), door),
      };
    });
    expect(record.getSession).toMatchObject({
      status: 405,
      headers: { allow: 'POST', 'cache-control': 'no-store' },
      body: { error: { code: 'METHOD_NOT_ALLOWED' } },
    });
    expect(record.postStatus).toMatchObject({ status: 405, headers: { allow: 'GET, HEAD' } });
  });

  it('refuses a session request that is too large (413), not JSON (415) or from another site (403)', async () => {
    const record = await alike(doors, async (door) => {
      const browser = door.browser();
      const tooLarge = await browser.fetch('POST', '/identity/session', {
        body: JSON.stringify({ restart: true, padding: 'x'.repeat(5000) }),
        headers: { 'content-type': 'application/json' },
      });
      const notJson = await browser.fetch('POST', '/identity/session', {
        body: '{}',
        headers: { 'content-type': 'text/plain' },
      });
      const crossSite = await browser.post('/identity/session', {}, { 'sec-fetch-site': 'cross-site' });
      const otherOrigin = await browser.post(
        '/identity/session',
        {},
        { 'sec-fetch-site': '', origin: 'https://evil.example' },
      );
      const sameOrigin = await browser.post(
        '/identity/session',
        {},
        { 'sec-fetch-site': '', origin: door.url },
      );
      const badBody = await browser.post('/identity/session', { restart: 'yes' });
      return {
        tooLarge: seen(tooLarge, door),
        notJson: seen(notJson, door),
        crossSite: seen(crossSite, door),
        otherOrigin: seen(otherOrigin, door),
        sameOrigin: seen(sameOrigin, door),
        badBody: seen(badBody, door),
      };
    });
    expect(record.tooLarge).toMatchObject({ status: 413, body: { error: { code: 'PAYLOAD_TOO_LARGE' } } });
    expect(record.notJson).toMatchObject({
      status: 415,
      body: { error: { code: 'UNSUPPORTED_MEDIA_TYPE' } },
    });
    expect(record.crossSite).toMatchObject({ status: 403, body: { error: { code: 'CROSS_SITE_REQUEST' } } });
    expect(record.otherOrigin).toMatchObject({
      status: 403,
      body: { error: { code: 'CROSS_SITE_REQUEST' } },
    });
    expect(record.sameOrigin.status).toBe(201);
    expect(record.badBody).toMatchObject({ status: 400, body: { error: { code: 'INVALID_BODY' } } });
  });

  it('webhooks: 204 signed, 400 headers missing, 401 bad or stale signature, a replay 204 again, 413 too large', async () => {
    const record = await alike(doors, async (door) => {
      const sender = door.browser();
      const created = await door.browser().post<SessionResponseBody>('/identity/session');
      const { identificationId } = await openByCode(door.sandbox, created.json.sessionCode);
      const id = `msg_parity_${door.name}`;
      const signed = await deliverWebhook(sender, { secret: WEBHOOK_SECRET, identificationId, id });
      const replay = await deliverWebhook(sender, { secret: WEBHOOK_SECRET, identificationId, id });
      const unsigned = await sender.fetch('POST', '/identity/webhook', {
        body: JSON.stringify({ type: 'identification.approved', data: { identificationId } }),
        headers: { 'content-type': 'application/json', 'sec-fetch-site': '' },
      });
      const badSignature = await deliverWebhook(sender, {
        secret: generateWebhookSecret(),
        identificationId,
      });
      const stale = await deliverWebhook(sender, {
        secret: WEBHOOK_SECRET,
        identificationId,
        timestamp: Math.floor(Date.now() / 1000) - 3600,
      });
      const ping = await deliverWebhook(sender, {
        secret: WEBHOOK_SECRET,
        identificationId,
        rawBody: '{"ping":1}',
      });
      const tooLarge = await deliverWebhook(sender, {
        secret: WEBHOOK_SECRET,
        identificationId,
        rawBody: JSON.stringify({ padding: 'x'.repeat(300 * 1024) }),
      });
      return {
        signed: seen(signed, door),
        replay: seen(replay, door),
        unsigned: seen(unsigned, door),
        badSignature: seen(badSignature, door),
        stale: seen(stale, door),
        ping: seen(ping, door),
        tooLarge: seen(tooLarge, door),
      };
    });
    expect([record.signed.status, record.replay.status, record.ping.status]).toEqual([204, 204, 204]);
    expect(record.unsigned).toMatchObject({
      status: 400,
      body: { error: { code: 'WEBHOOK_HEADERS_MISSING' } },
    });
    expect(record.badSignature).toMatchObject({
      status: 401,
      body: { error: { code: 'WEBHOOK_SIGNATURE_INVALID' } },
    });
    expect(record.stale).toMatchObject({ status: 401, body: { error: { code: 'WEBHOOK_TIMESTAMP_STALE' } } });
    expect(record.tooLarge).toMatchObject({ status: 413, body: { error: { code: 'PAYLOAD_TOO_LARGE' } } });
  });

  it('409 with Retry-After to a second tab while the first is creating, then the tab resumes the new session', async () => {
    const record = await alike(doors, async (door) => {
      const tab = door.browser();
      await tab.post('/identity/session');
      const other = new Browser(door.url, tab.cookies.clone());
      const release = holdCreations();
      const before = creations.started;
      const first = tab.post<SessionResponseBody>('/identity/session', { restart: true });
      let second: BrowserResponse;
      try {
        await until(() => creations.started > before, 'the first creation is under way');
        second = await other.post('/identity/session', { restart: true });
      } finally {
        release();
      }
      const created = await first;
      const resumed = await new Browser(door.url, tab.cookies.clone()).post<SessionResponseBody>(
        '/identity/session',
      );
      return {
        created: seen(created, door),
        refused: seen(second, door),
        resumed: seen(resumed, door),
        resumedIsTheNewSession: resumed.json.sessionCode === created.json.sessionCode,
      };
    });
    expect(record.created.status).toBe(201);
    expect(record.refused).toMatchObject({
      status: 409,
      headers: { 'retry-after': '1' },
      body: { error: { code: 'SESSION_CREATION_IN_PROGRESS' } },
    });
    expect(record.resumedIsTheNewSession).toBe(true);
  });

  it('two new visitors starting at the same moment each get their own session', async () => {
    const record = await alike(doors, async (door) => {
      const release = holdCreations();
      const before = creations.started;
      let secondDone = false;
      let first: Promise<BrowserResponse<SessionResponseBody>> | undefined;
      let second: Promise<BrowserResponse<SessionResponseBody>> | undefined;
      try {
        first = door.browser().post<SessionResponseBody>('/identity/session');
        await until(() => creations.started > before, 'the first creation is under way');
        second = door
          .browser()
          .post<SessionResponseBody>('/identity/session')
          .finally(() => {
            secondDone = true;
          });
        // The second visitor's creation is under way beside the first, or it was answered at once.
        await until(() => creations.started > before + 1 || secondDone, 'the second visitor is answered');
      } finally {
        release();
      }
      const answers = await Promise.all([first, second]);
      return {
        answers: answers.map((answer) => seen(answer, door)),
        distinct: answers[0].json.sessionCode !== answers[1].json.sessionCode,
      };
    });
    expect(record.answers.map((answer) => answer.status)).toEqual([201, 201]);
    expect(record.distinct).toBe(true);
  });
});

describe('longPoll: false, both doors alike', () => {
  const doors = useDoors({ longPoll: false, pollIntervalMs: 1500 });

  it('no request is held and every answer says when to ask again (pollAfterMs)', async () => {
    const record = await alike(doors, async (door) => {
      const browser = door.browser();
      const created = await browser.post('/identity/session');
      const startedAt = Date.now();
      const polled = await browser.get('/identity/status?wait=5&since=awaiting_user');
      return {
        created: seen(created, door),
        polled: seen(polled, door),
        answeredAtOnce: Date.now() - startedAt < 1000,
      };
    });
    expect(record.created).toMatchObject({
      status: 201,
      body: { phase: 'awaiting_user', pollAfterMs: 1500 },
    });
    expect(record.polled).toMatchObject({ status: 200, body: { phase: 'awaiting_user', pollAfterMs: 1500 } });
    expect(record.answeredAtOnce).toBe(true);
  });
});

describe('creation limits per address, both doors alike', () => {
  const doors = useDoors({ sessionLimit: { perIp: 2, perClient: 5, windowSeconds: 60 } });

  it('an address over its limit is refused 429 with Retry-After while another address still creates', async () => {
    const record = await alike(doors, async (door) => {
      const answers: BrowserResponse[] = [];
      for (let i = 0; i < 3; i++) answers.push(await door.browser('127.0.0.2').post('/identity/session'));
      const fromB = seen(await door.browser('127.0.0.3').post('/identity/session'), door);
      const retryAfter = Number(answers[2]?.headers['retry-after']);
      return {
        fromA: answers.map((answer) => seen(answer, door)),
        fromB,
        retryAfterWithinTheWindow: retryAfter > 0 && retryAfter <= 60,
      };
    });
    expect(record.fromA.map((answer) => answer.status)).toEqual([201, 201, 429]);
    expect(record.fromA[2]).toMatchObject({ body: { error: { code: 'TOO_MANY_SESSIONS' } } });
    expect(record.fromA[2]?.headers['retry-after']).toBe('<s>');
    expect(record.retryAfterWithinTheWindow).toBe(true);
    expect(record.fromB.status).toBe(201);
  });
});

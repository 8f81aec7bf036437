import { generateWebhookSecret } from '@verify-kit/client';
import { startSandbox } from '@verify-kit/sandbox';
import {
  Browser,
  capturingLogger,
  deliverWebhook,
  expectKeyNeverLeaked,
  listen,
  startFakeUpstream,
} from '@verify-kit/testkit';
import express from 'express';
import session from 'express-session';
import { afterAll, describe, expect, it } from 'vitest';
import { createVerifyKit, type StatusResponseBody } from '../src/index.js';
import { startApp } from './support/app.js';
import { submitDocument } from './support/sandbox.js';

const API_KEY = 'sk_test_coalesce_0b7d44e1aa';
afterAll(() => expectKeyNeverLeaked(API_KEY));

const until = async (condition: () => boolean) => {
  for (let i = 0; i < 2000 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  if (!condition()) throw new Error('condition never met');
};

/** The identificationId the fake created last. */
const lastCreated = (statuses: Map<string, string>) => [...statuses.keys()].at(-1)!;

describe('single-flight status reads', () => {
  it('100 concurrent gated requests of one user cause exactly 1 upstream read', async () => {
    const upstream = await startFakeUpstream();
    const kit = createVerifyKit({
      baseUrl: upstream.url,
      apiKey: API_KEY,
      workflowId: 'default',
      logger: capturingLogger(),
    });
    const app = express();
    app.use(session({ secret: 's', resave: false, saveUninitialized: false }));
    app.use('/identity', kit.router);
    let arrived = 0;
    let passed = 0;
    const countArrival: express.RequestHandler = (_req, _res, next) => {
      arrived++;
      next();
    };
    app.get('/gated', countArrival, kit.requireApproved(), (_req, res) => {
      passed++;
      res.json({ ok: true });
    });
    const server = await listen(app);
    try {
      const browser = new Browser(server.url);
      await browser.post('/identity/session');
      upstream.statuses.set(lastCreated(upstream.statuses), 'APPROVED');
      const cookieBefore = browser.cookieHeader;

      // The upstream holds its answer until every request reached the gate.
      let release!: () => void;
      upstream.hold = new Promise<void>((resolve) => {
        release = resolve;
      });
      upstream.reads = 0;
      const responses = Promise.all(Array.from({ length: 100 }, () => browser.get('/gated')));
      await until(() => arrived === 100);
      await new Promise((resolve) => setTimeout(resolve, 20));
      release();
      const all = await responses;

      expect(upstream.reads).toBe(1);
      expect(all.map((res) => res.status)).toEqual(Array(100).fill(200));
      expect(passed).toBe(100);
      // First approval: one regeneration; every concurrent response carries the same new session.
      const cookies = new Set(all.map((res) => String(res.headers['set-cookie']).split(';')[0]));
      expect(cookies.size).toBe(1);
      expect(browser.cookieHeader).not.toBe(cookieBefore);
      expect((await browser.get('/gated')).status).toBe(200);
    } finally {
      await kit.close();
      await server.close();
      await upstream.close();
    }
  });

  it('maxAgeMs lets the gate reuse a recent read; 0 reads every time', async () => {
    const upstream = await startFakeUpstream();
    const kit = createVerifyKit({
      baseUrl: upstream.url,
      apiKey: API_KEY,
      workflowId: 'default',
      logger: capturingLogger(),
    });
    const app = express();
    app.use(session({ secret: 's', resave: false, saveUninitialized: false }));
    app.use('/identity', kit.router);
    app.get('/fresh', kit.requireApproved(), (_req, res) => res.json({}));
    app.get('/cached', kit.requireApproved({ maxAgeMs: 60_000 }), (_req, res) => res.json({}));
    const server = await listen(app);
    try {
      const browser = new Browser(server.url);
      await browser.post('/identity/session');
      upstream.statuses.set(lastCreated(upstream.statuses), 'APPROVED');
      upstream.reads = 0;
      for (let i = 0; i < 3; i++) expect((await browser.get('/fresh')).status).toBe(200);
      expect(upstream.reads).toBe(3);
      for (let i = 0; i < 3; i++) expect((await browser.get('/cached')).status).toBe(200);
      expect(upstream.reads).toBe(3);
    } finally {
      await kit.close();
      await server.close();
      await upstream.close();
    }
  });
});

describe('single-flight session creation', () => {
  it('tabs of one browser session starting a verification at the same moment share one upstream session', async () => {
    const upstream = await startFakeUpstream();
    const kit = createVerifyKit({
      baseUrl: upstream.url,
      apiKey: API_KEY,
      workflowId: 'default',
      logger: capturingLogger(),
    });
    const app = express();
    app.use(session({ secret: 's', resave: false, saveUninitialized: false }));
    app.post('/login', (req, res) => {
      (req.session as unknown as { user: string }).user = 'ada';
      res.json({ ok: true });
    });
    let arrived = 0;
    app.use(
      '/identity',
      (req, _res, next) => {
        if (req.path === '/session') arrived++;
        next();
      },
      kit.router,
    );
    const server = await listen(app);
    try {
      const signedIn = new Browser(server.url);
      await signedIn.post('/login');
      const cookieBefore = signedIn.cookieHeader;
      // Each tab sends the same cookie and keeps what its own response sets.
      const tabs = Array.from({ length: 5 }, () => new Browser(server.url, signedIn.cookies.clone()));

      // The upstream holds the creation until every tab's request reached the kit.
      let release!: () => void;
      upstream.holdCreate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const responses = Promise.all(tabs.map((tab) => tab.post<{ qrCodeUrl: string }>('/identity/session')));
      await until(() => arrived === 5);
      await new Promise((resolve) => setTimeout(resolve, 20));
      release();
      const all = await responses;

      expect(all.map((res) => res.status)).toEqual(Array(5).fill(201));
      expect(upstream.created).toHaveLength(1);
      // qrCodeUrl is derived from the upstream session id: the same one for every tab.
      expect(new Set(all.map((res) => res.json.qrCodeUrl)).size).toBe(1);
      // Every tab continues as the one regenerated session (fixation: the old id is gone).
      expect(new Set(tabs.map((tab) => tab.cookieHeader)).size).toBe(1);
      expect(tabs[0]!.cookieHeader).not.toBe(cookieBefore);
      for (const tab of tabs) {
        expect((await tab.get<StatusResponseBody>('/identity/status')).json.phase).toBe('awaiting_user');
      }
      expect((await signedIn.get('/identity/status')).status).toBe(404);
      // Later calls reuse the binding; only { restart: true } creates another upstream session.
      expect((await tabs[1]!.post<{ qrCodeUrl: string }>('/identity/session')).json.qrCodeUrl).toBe(
        all[0]!.json.qrCodeUrl,
      );
      expect(upstream.created).toHaveLength(1);
      await tabs[2]!.post('/identity/session', { restart: true });
      expect(upstream.created).toHaveLength(2);
    } finally {
      await kit.close();
      await server.close();
      await upstream.close();
    }
  });

  it('a failed creation fails every waiting tab, and the next attempt starts afresh', async () => {
    const upstream = await startFakeUpstream();
    const app = await startApp({ baseUrl: upstream.url, apiKey: API_KEY });
    try {
      const first = app.browser();
      await first.post('/login?user=ada');
      const tabs = Array.from({ length: 3 }, () => new Browser(app.url, first.cookies.clone()));
      upstream.mode = '500';
      const failed = await Promise.all(
        tabs.map((tab) => tab.post<{ error: { code: string } }>('/identity/session')),
      );
      expect(failed.map((res) => [res.status, res.json.error.code])).toEqual(
        Array(3).fill([503, 'UPSTREAM_UNAVAILABLE']),
      );
      upstream.mode = 'healthy';
      expect((await tabs[0]!.post('/identity/session')).status).toBe(201);
      expect(upstream.created).toHaveLength(1);
    } finally {
      await app.close();
      await upstream.close();
    }
  });
  it('a request still carrying the pre-verification cookie keeps its sign-in, but sees no verification', async () => {
    const upstream = await startFakeUpstream();
    const app = await startApp({ baseUrl: upstream.url, apiKey: API_KEY });
    try {
      const tab = app.browser();
      await tab.post('/login?user=ada');
      // A request of the same page that left before POST /session answered (it holds the old cookie).
      const inFlight = new Browser(app.url, tab.cookies.clone());
      expect((await tab.post('/identity/session')).status).toBe(201);
      expect((await inFlight.get<{ user: string | null }>('/whoami')).json.user).toBe('ada');
      expect((await inFlight.get('/identity/status')).status).toBe(404);
      expect((await tab.get<{ user: string | null }>('/whoami')).json.user).toBe('ada');
      expect((await tab.get('/identity/status')).status).toBe(200);
    } finally {
      await app.close();
      await upstream.close();
    }
  });
});

describe('long-polls', () => {
  it('10 tabs of one user share the reads, and a signed webhook wakes them all with one read', async () => {
    const secret = generateWebhookSecret();
    const upstream = await startFakeUpstream();
    // A poll interval longer than the wait: only the webhook can wake the tabs.
    const app = await startApp({
      baseUrl: upstream.url,
      apiKey: API_KEY,
      webhookSecret: secret,
      pollIntervalMs: 60_000,
    });
    try {
      const first = app.browser();
      await first.post('/identity/session');
      const identificationId = lastCreated(upstream.statuses);
      upstream.reads = 0;
      const tabs = Array.from({ length: 10 }, () => {
        const tab = new Browser(app.url);
        for (const [name, value] of first.cookies) tab.cookies.set(name, value);
        return tab;
      });
      const polls = tabs.map((tab) =>
        tab.get<StatusResponseBody>('/identity/status?wait=20&since=awaiting_user'),
      );
      await until(() => upstream.reads === 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(upstream.reads).toBe(1);

      upstream.statuses.set(identificationId, 'IN_MANUAL_REVIEW');
      const hook = await deliverWebhook(app.browser(), {
        secret,
        identificationId,
        type: 'identification.in_manual_review',
      });
      expect(hook.status).toBe(204);
      const answers = await Promise.all(polls);
      expect(answers.map((res) => res.json.phase)).toEqual(Array(10).fill('in_review'));
      expect(upstream.reads).toBe(2);
    } finally {
      await app.close();
      await upstream.close();
    }
  });

  it('stop reading when the client goes away', async () => {
    const upstream = await startFakeUpstream();
    const app = await startApp({ baseUrl: upstream.url, apiKey: API_KEY, pollIntervalMs: 50 });
    try {
      const browser = app.browser();
      await browser.post('/identity/session');
      const abort = new AbortController();
      const poll = browser.fetch('GET', '/identity/status?wait=30&since=awaiting_user', {
        signal: abort.signal,
      });
      poll.catch(() => undefined);
      await until(() => upstream.reads >= 3);
      abort.abort();
      await expect(poll).rejects.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const afterAbort = upstream.reads;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(upstream.reads).toBe(afterAbort);
    } finally {
      await app.close();
      await upstream.close();
    }
  });

  it('answer at once with what they know when the kit closes', async () => {
    const upstream = await startFakeUpstream();
    const app = await startApp({ baseUrl: upstream.url, apiKey: API_KEY, pollIntervalMs: 60_000 });
    try {
      const browser = app.browser();
      await browser.post('/identity/session');
      const poll = browser.get<StatusResponseBody>('/identity/status?wait=30&since=awaiting_user');
      await until(() => upstream.reads === 1);
      await app.kit.close();
      const res = await poll;
      expect(res.status).toBe(200);
      expect(res.json.phase).toBe('awaiting_user');
      expect((await browser.get<{ error: { code: string } }>('/identity/status')).json.error.code).toBe(
        'KIT_CLOSED',
      );
    } finally {
      await app.close();
      await upstream.close();
    }
  });

  it('are woken by the sandbox’s real signed webhooks', async () => {
    const secret = generateWebhookSecret();
    const listening = await listen();
    const sandbox = await startSandbox({
      apiKey: API_KEY,
      reviewDelayMs: 0,
      webhookUrl: `${listening.url}/identity/webhook`,
      webhookSecret: secret,
    });
    const app = await startApp(
      { baseUrl: sandbox.url, apiKey: API_KEY, webhookSecret: secret, pollIntervalMs: 60_000 },
      { listening },
    );
    try {
      const browser = app.browser();
      const session = await browser.post<{ sessionCode: string }>('/identity/session');
      const poll = browser.get<StatusResponseBody>('/identity/status?wait=20&since=awaiting_user');
      await new Promise((resolve) => setTimeout(resolve, 50));
      await submitDocument(sandbox, session.json.sessionCode, 'manual_review');
      const res = await poll;
      expect(res.json.phase).toBe('in_review');
    } finally {
      await app.close();
      await sandbox.close();
    }
  });
});

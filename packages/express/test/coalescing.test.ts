import { generateWebhookSecret } from '@verify-kit/client';
import { Browser, expectKeyNeverLeaked, type FakeUpstream, until } from '@verify-kit/testkit';
import type express from 'express';
import { afterAll, describe, expect, it } from 'vitest';
import type { ErrorResponseBody, SessionResponseBody, StatusResponseBody } from '../src/index.js';
import { type AppSetup, signedInUser, type TestApp, withFakeUpstreamApp } from './support/app.js';
import { changeStatusOn, startVerificationOn, startWebhookedApp } from './support/fixtures.js';
import { submitDocument } from './support/sandbox.js';

const API_KEY = 'sk_test_coalesce_0b7d44e1aa';
afterAll(() => expectKeyNeverLeaked(API_KEY));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends `start()`'s requests while the fake upstream holds the first session creation, and lets it
 * answer once they had time to arrive: the requests overlap for sure.
 */
async function startTogether<T>(upstream: FakeUpstream, start: () => Promise<T>[]): Promise<T[]> {
  let release!: () => void;
  upstream.holdCreate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const responses = Promise.all(start());
  await until(() => upstream.created.length === 1);
  await sleep(50);
  release();
  upstream.holdCreate = undefined;
  return responses;
}

/** A browser whose verification the fake upstream approved; the kit has not read it yet. */
async function approvedBrowser(app: TestApp, upstream: FakeUpstream): Promise<Browser> {
  const browser = app.browser();
  upstream.statuses.set(await startVerificationOn(upstream, browser), 'APPROVED');
  return browser;
}

describe('single-flight status reads', () => {
  it('100 concurrent gated requests of one user cause exactly 1 upstream read', async () => {
    let arrived = 0;
    let passed = 0;
    const routes: AppSetup['routes'] = (app, kit) => {
      const countArrival: express.RequestHandler = (_req, _res, next) => {
        arrived++;
        next();
      };
      app.get('/gated', countArrival, kit.requireApproved(), (_req, res) => {
        passed++;
        res.json({ ok: true });
      });
    };
    await withFakeUpstreamApp(
      { apiKey: API_KEY },
      async (app, upstream) => {
        const browser = await approvedBrowser(app, upstream);
        const cookieBefore = browser.cookieHeader;

        // The upstream holds its answer until every request reached the gate.
        let release!: () => void;
        upstream.hold = new Promise<void>((resolve) => {
          release = resolve;
        });
        upstream.reads = 0;
        const responses = Promise.all(Array.from({ length: 100 }, () => browser.get('/gated')));
        await until(() => arrived === 100);
        await sleep(20);
        release();
        const all = await responses;

        expect(upstream.reads).toBe(1);
        expect(all.map((res) => res.status)).toEqual(Array(100).fill(200));
        expect(passed).toBe(100);
        // First approval: one regeneration, sent on one response only (never handed to another request).
        const renewed = all.filter((res) => String(res.headers['set-cookie'] ?? '').includes('connect.sid='));
        expect(renewed).toHaveLength(1);
        expect(browser.cookieHeader).not.toBe(cookieBefore);
        expect((await browser.get('/gated')).status).toBe(200);
      },
      { routes },
    );
  });

  it("freshness 'every-request': maxAgeMs lets the gate reuse a recent read; 0 reads every time", async () => {
    await withFakeUpstreamApp(
      { apiKey: API_KEY, freshness: 'every-request' },
      async (app, upstream) => {
        const browser = await approvedBrowser(app, upstream);
        upstream.reads = 0;
        for (let i = 0; i < 3; i++) expect((await browser.get('/api/data')).status).toBe(200);
        expect(upstream.reads).toBe(3);
        for (let i = 0; i < 3; i++) expect((await browser.get('/cached')).status).toBe(200);
        expect(upstream.reads).toBe(3);
      },
      {
        routes: (app, kit) =>
          app.get('/cached', kit.requireApproved({ maxAgeMs: 60_000 }), (_req, res) => res.json({})),
      },
    );
  });
});

describe('single-flight session creation', () => {
  it('tabs of one browser session starting at the same moment: one creates, the others are told to ask again', async () => {
    await withFakeUpstreamApp({ apiKey: API_KEY }, async (app, upstream) => {
      const signedIn = await app.signedIn('ada');
      const cookieBefore = signedIn.cookieHeader;
      // Each tab sends the same cookie and keeps what its own response sets.
      const tabs = Array.from({ length: 5 }, () => new Browser(app.url, signedIn.cookies.clone()));
      const all = await startTogether(upstream, () =>
        tabs.map((tab) => tab.post<SessionResponseBody>('/identity/session')),
      );

      expect(all.map((res) => res.status).sort()).toEqual([201, 409, 409, 409, 409]);
      expect(upstream.created).toHaveLength(1);
      const refused = all.filter((res) => res.status === 409);
      for (const res of refused) {
        expect(res.headers['retry-after']).toBe('1');
        expect((res.json as unknown as ErrorResponseBody).error.code).toBe('SESSION_CREATION_IN_PROGRESS');
      }
      // A browser shares its cookies between tabs: asked again, a tab resumes the one session.
      const winner = tabs[all.findIndex((res) => res.status === 201)]!;
      expect(winner.cookieHeader).not.toBe(cookieBefore);
      const again = await new Browser(app.url, winner.cookies.clone()).post<SessionResponseBody>(
        '/identity/session',
      );
      expect(again.json.qrCodeUrl).toBe(all.find((res) => res.status === 201)!.json.qrCodeUrl);
      expect(upstream.created).toHaveLength(1);
      // The old cookie holds no verification, and only { restart: true } creates another session.
      expect((await signedIn.get('/identity/status')).status).toBe(404);
      await winner.post('/identity/session', { restart: true });
      expect(upstream.created).toHaveLength(2);
    });
  });

  it('tabs of one signed-in account starting at the same moment share one upstream session', async () => {
    await withFakeUpstreamApp({ apiKey: API_KEY, accountOf: signedInUser }, async (app, upstream) => {
      const devices = [await app.signedIn('ada'), await app.signedIn('ada'), await app.signedIn('ada')];
      const all = await startTogether(upstream, () =>
        devices.map((device) => device.post<SessionResponseBody>('/identity/session')),
      );
      expect(all.map((res) => res.status)).toEqual([201, 201, 201]);
      expect(new Set(all.map((res) => res.json.qrCodeUrl)).size).toBe(1);
      expect(upstream.created).toHaveLength(1);
    });
  });

  it('a failed creation fails every waiting tab of the account, and the next attempt starts afresh', async () => {
    await withFakeUpstreamApp({ apiKey: API_KEY, accountOf: signedInUser }, async (app, upstream) => {
      const first = await app.signedIn('ada');
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
    });
  });
});

describe('the session id renewed when a verification starts', () => {
  it('the pre-verification id is destroyed: a request still carrying it is signed out and sees no verification', async () => {
    await withFakeUpstreamApp({ apiKey: API_KEY }, async (app) => {
      const tab = await app.signedIn('ada');
      // A request that still holds the old cookie (a planted or leaked id, or a tab behind the move).
      const inFlight = new Browser(app.url, tab.cookies.clone());
      expect((await tab.post('/identity/session')).status).toBe(201);
      expect((await inFlight.get<{ user: string | null }>('/whoami')).json.user).toBeNull();
      expect((await inFlight.get('/identity/status')).status).toBe(404);
      expect((await tab.get<{ user: string | null }>('/whoami')).json.user).toBe('ada');
      expect((await tab.get('/identity/status')).status).toBe(200);
    });
  });
});

describe('long-polls of one verification', () => {
  it('4 tabs of one user share the reads, a 5th is told to wait, and a signed webhook wakes them all with one read', async () => {
    const secret = generateWebhookSecret();
    // A poll interval longer than the wait: only the webhook can wake the tabs.
    const options = { apiKey: API_KEY, webhookSecret: secret, pollIntervalMs: 60_000 };
    await withFakeUpstreamApp(options, async (app, upstream) => {
      const first = app.browser();
      await first.post('/identity/session');
      const identificationId = upstream.lastIdentificationId();
      upstream.reads = 0;
      const tabs = Array.from({ length: 4 }, () => new Browser(app.url, first.cookies.clone()));
      const polls = tabs.map((tab) =>
        tab.get<StatusResponseBody>('/identity/status?wait=20&since=awaiting_user'),
      );
      await until(() => upstream.reads === 1);
      await sleep(50);
      expect(upstream.reads).toBe(1);
      // Long-polls one verification may hold are capped (a flood of them would hold the server).
      const fifth = await first.get<ErrorResponseBody>('/identity/status?wait=20&since=awaiting_user');
      expect([fifth.status, fifth.json.error.code, fifth.headers['retry-after']]).toEqual([
        429,
        'TOO_MANY_LONG_POLLS',
        '2',
      ]);

      await changeStatusOn(upstream, app, { secret, identificationId, status: 'IN_MANUAL_REVIEW' });
      const answers = await Promise.all(polls);
      expect(answers.map((res) => res.json.phase)).toEqual(Array(4).fill('in_manual_review'));
      expect(upstream.reads).toBe(2);
    });
  });

  it('are woken by the sandbox’s real signed webhooks', async () => {
    const { sandbox, app, close } = await startWebhookedApp(API_KEY);
    try {
      const browser = app.browser();
      const session = await browser.post<{ sessionCode: string }>('/identity/session');
      const poll = browser.get<StatusResponseBody>('/identity/status?wait=20&since=awaiting_user');
      await sleep(50);
      await submitDocument(sandbox, session.json.sessionCode, 'manual_review');
      const res = await poll;
      expect(res.json.phase).toBe('in_manual_review');
    } finally {
      await close();
    }
  });
});

describe('long-polls ending early', () => {
  it('stop reading when the client goes away', async () => {
    await withFakeUpstreamApp({ apiKey: API_KEY, pollIntervalMs: 50 }, async (app, upstream) => {
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
      await sleep(200);
      const afterAbort = upstream.reads;
      await sleep(300);
      expect(upstream.reads).toBe(afterAbort);
    });
  });

  it('answer at once with what they know when the kit closes', async () => {
    await withFakeUpstreamApp({ apiKey: API_KEY, pollIntervalMs: 60_000 }, async (app, upstream) => {
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
    });
  });
});

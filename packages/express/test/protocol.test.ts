import { readQrImage } from '@verify-kit/testkit/chromium';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import type { SessionResponseBody, StatusResponseBody } from '../src/index.js';
import { approveInSandbox, useSandboxApp } from './support/fixtures.js';
import { decide, openByCode, submitDocument, waitForStatus } from './support/sandbox.js';

const API_KEY = 'sk_test_protocol_9f3b1c7e2d';
// One clock for the sandbox and the kit, so expiry can be tested without waiting.
let skewMs = 0;
const now = () => Date.now() + skewMs;
const context = useSandboxApp(API_KEY, { now }, { now });

function advance(ms: number) {
  skewMs += ms;
  context.sandbox.advanceClock(0);
}

const html = { accept: 'text/html,application/xhtml+xml', 'sec-fetch-mode': 'navigate' };

describe('POST /session: starting a verification', () => {
  it('POST /session creates a verification bound to the browser session', async () => {
    const browser = context.app.browser();
    const res = await browser.post<SessionResponseBody>('/identity/session');
    expect(res.status).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json;
    expect(Object.keys(body).sort()).toEqual(
      [
        'deepLink',
        'expiresAt',
        'phase',
        'qrCodeUrl',
        'qrImage',
        'sendLink',
        'sessionCode',
        'sessionPageLink',
        'status',
      ].sort(),
    );
    expect(body.sessionCode).toMatch(/^[A-Z2-9]{8}$/);
    expect(body.deepLink).toMatch(/^idv:\/\/app-url\//);
    expect(body.qrCodeUrl).toMatch(/^\/identity\/qr\.svg\?v=[\w-]+$/);
    expect(body.sessionPageLink.startsWith(`${context.sandbox.url}/public/verification-sessions/`)).toBe(
      true,
    );
    expect(body.status).toBe('IN_AUTOMATIC_REVIEW');
    expect(body.phase).toBe('awaiting_user');
    expect(Date.parse(body.expiresAt) - now()).toBeGreaterThan(29 * 60_000);
    // The browser never learns the upstream's ids beyond what the links already carry.
    expect(res.text).not.toContain('identificationId');

    const status = await browser.get<StatusResponseBody>('/identity/status');
    expect(status.status).toBe(200);
    expect(status.json).toEqual({
      status: 'IN_AUTOMATIC_REVIEW',
      phase: 'awaiting_user',
      expiresAt: body.expiresAt,
    });
  });

  it('reuses the live verification, and starts a new one on { restart: true }', async () => {
    const browser = context.app.browser();
    const first = await browser.post<SessionResponseBody>('/identity/session');
    const again = await browser.post<SessionResponseBody>('/identity/session', {});
    expect(again.status).toBe(201);
    expect(again.json.sessionCode).toBe(first.json.sessionCode);
    expect(again.json.qrCodeUrl).toBe(first.json.qrCodeUrl);
    const restarted = await browser.post<SessionResponseBody>('/identity/session', { restart: true });
    expect(restarted.status).toBe(201);
    expect(restarted.json.sessionCode).not.toBe(first.json.sessionCode);
    expect(restarted.json.qrCodeUrl).not.toBe(first.json.qrCodeUrl);
    const status = await browser.get<StatusResponseBody>('/identity/status');
    expect(status.json.expiresAt).toBe(restarted.json.expiresAt);
  });
});

describe('the QR code in the session answer', () => {
  it('carries the QR as a data: URL that a camera reads as the deep link, fresh and resumed alike', async () => {
    const browser = context.app.browser();
    const created = await browser.post<SessionResponseBody>('/identity/session');
    const { qrImage, deepLink } = created.json;
    expect(qrImage.startsWith('data:image/svg+xml,%3Csvg ')).toBe(true);
    // The same picture as GET /qr.svg, escaped for a URL only where needed (no base64).
    const svg = (await browser.get(created.json.qrCodeUrl)).text;
    expect(decodeURIComponent(qrImage.slice('data:image/svg+xml,'.length))).toBe(
      svg.trim().replace(/"/g, "'"),
    );
    expect(await readQrImage(qrImage)).toBe(deepLink);
    // The answer that resumes the live session after a reload paints without a request too.
    const resumed = await browser.post<SessionResponseBody>('/identity/session');
    expect(resumed.json.sessionCode).toBe(created.json.sessionCode);
    expect(resumed.json.qrImage).toBe(qrImage);
    const restarted = await browser.post<SessionResponseBody>('/identity/session', { restart: true });
    expect(await readQrImage(restarted.json.qrImage)).toBe(restarted.json.deepLink);
  });
});

describe('GET /qr.svg, and a browser session without a verification', () => {
  it('GET /qr.svg is the QR code of the bound deep link, private to the browser', async () => {
    const browser = context.app.browser();
    const session = await browser.post<SessionResponseBody>('/identity/session');
    const res = await browser.get(session.json.qrCodeUrl);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(res.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    expect(res.text).toBe(
      await QRCode.toString(session.json.deepLink, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }),
    );
    const other = context.app.browser();
    await other.post('/identity/session');
    expect((await other.get(session.json.qrCodeUrl)).text).not.toBe(res.text);
  });

  it('answers 404 NO_VERIFICATION_SESSION to a browser session without a verification', async () => {
    const browser = context.app.browser();
    for (const path of [
      '/identity/status',
      '/identity/qr.svg',
      '/identity/status?wait=5&since=awaiting_user',
    ]) {
      const res = await browser.get<{ error: { code: string } }>(path);
      expect(res.status).toBe(404);
      expect(res.json.error.code).toBe('NO_VERIFICATION_SESSION');
    }
  });
});

describe('the way to the gated page', () => {
  it('takes a person from a new session through approval to the gated page', async () => {
    const browser = context.app.browser();
    await browser.post('/login?user=ayse');
    const session = await browser.post<SessionResponseBody>('/identity/session');

    const redirected = await browser.get('/account', html);
    expect(redirected.status).toBe(303);
    expect(redirected.headers.location).toBe('/verify?returnTo=%2Faccount');
    const refused = await browser.get<{ error: { code: string }; status: string; phase: string }>(
      '/api/data',
    );
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({
      error: { code: 'NOT_APPROVED' },
      status: 'IN_AUTOMATIC_REVIEW',
      phase: 'awaiting_user',
    });

    await approveInSandbox(context.sandbox, session.json.sessionCode);
    const cookieBefore = browser.cookieHeader;
    const status = await browser.get<StatusResponseBody>('/identity/status');
    expect(status.json.phase).toBe('approved');
    // GET /status is read-only: it never writes the session (nor renews its id).
    expect(browser.cookieHeader).toBe(cookieBefore);

    const account = await browser.get('/account', html);
    expect(account.status).toBe(200);
    // Session fixation: the first approved gated request gives the session a new id, keeping its data.
    expect(browser.cookieHeader).not.toBe(cookieBefore);
    expect((await browser.get('/whoami')).json).toEqual({ user: 'ayse' });
    expect(account.json).toEqual({ account: 'welcome' });
    expect((await browser.get('/api/data')).json).toEqual({ data: 'gated' });
    // The id changes once, not on every approved request.
    const cookieAfter = browser.cookieHeader;
    await browser.get('/api/data');
    expect(browser.cookieHeader).toBe(cookieAfter);

    expect((await browser.get('/custom')).json).toEqual({
      status: 'APPROVED',
      phase: 'approved',
      expiresAt: session.json.expiresAt,
      approved: true,
      // Inside the visit the gated requests above began: the stored decision answers.
      source: 'stored',
    });
    expect((await browser.post('/check-country?country=TUR')).json).toEqual({ verified: true });
    expect((await browser.post('/check-country?country=DEU')).json).toEqual({ verified: false });
    // An approved verification is reused, not replaced.
    const reused = await browser.post<SessionResponseBody>('/identity/session');
    expect(reused.json).toMatchObject({ sessionCode: session.json.sessionCode, phase: 'approved' });
  });
});

describe('GET /status following the phases', () => {
  it('long-polls: answers when the phase moves away from `since`', async () => {
    const browser = context.app.browser();
    const session = await browser.post<SessionResponseBody>('/identity/session');
    const polling = browser.get<StatusResponseBody>('/identity/status?wait=15&since=awaiting_user');
    await submitDocument(context.sandbox, session.json.sessionCode, 'manual_review');
    const answered = await polling;
    expect(answered.status).toBe(200);
    expect(answered.json.phase).toMatch(/^in_(manual_)?review$/);
    // since equal to something else than the current phase: at once.
    const immediate = await browser.get<StatusResponseBody>('/identity/status?wait=15&since=awaiting_user');
    expect(immediate.json.phase).toMatch(/^in_(manual_)?review$/);
  });

  it('follows manual review, resubmission and rejection', async () => {
    const browser = context.app.browser();
    const session = await browser.post<SessionResponseBody>('/identity/session');
    const { identificationId } = await submitDocument(context.sandbox, session.json.sessionCode, 'resubmit');
    await waitForStatus(context.sandbox, identificationId, 'RESUBMISSION_REQUIRED');
    expect((await browser.get<StatusResponseBody>('/identity/status')).json.phase).toBe(
      'resubmission_required',
    );

    await submitDocument(context.sandbox, session.json.sessionCode, 'manual_review');
    await waitForStatus(context.sandbox, identificationId, 'IN_MANUAL_REVIEW');
    expect((await browser.get<StatusResponseBody>('/identity/status')).json.phase).toBe('in_manual_review');

    await decide(context.sandbox, identificationId, 'REJECTED');
    const rejected = await browser.get<StatusResponseBody>('/identity/status');
    expect(rejected.json).toMatchObject({ status: 'REJECTED', phase: 'rejected' });
    const gate = await browser.get<{ phase: string }>('/api/data');
    expect(gate.status).toBe(403);
    expect(gate.json.phase).toBe('rejected');
    // A rejection stays visible until the person chooses to start again.
    expect((await browser.post<SessionResponseBody>('/identity/session')).json).toMatchObject({
      sessionCode: session.json.sessionCode,
      phase: 'rejected',
    });
    const restarted = await browser.post<SessionResponseBody>('/identity/session', { restart: true });
    expect(restarted.json.phase).toBe('awaiting_user');
  });

  it('reports an expired session and replaces it on the next POST /session', async () => {
    const browser = context.app.browser();
    const session = await browser.post<SessionResponseBody>('/identity/session');
    advance(31 * 60_000);
    const status = await browser.get<StatusResponseBody>('/identity/status');
    expect(status.json).toMatchObject({ status: 'IN_AUTOMATIC_REVIEW', phase: 'expired' });
    await expect(openByCode(context.sandbox, session.json.sessionCode)).rejects.toThrow();
    const fresh = await browser.post<SessionResponseBody>('/identity/session');
    expect(fresh.json.phase).toBe('awaiting_user');
    expect(fresh.json.sessionCode).not.toBe(session.json.sessionCode);
  });
});

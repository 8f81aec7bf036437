import { generateWebhookSecret, signWebhook } from '@verify-kit/client';
import { Browser, rawExchange } from '@verify-kit/testkit';
import { describe, expect, it } from 'vitest';
import type { SessionResponseBody, StatusResponseBody } from '../src/index.js';
import { approveInSandbox, startVerificationIn, useSandboxApp } from './support/fixtures.js';

const API_KEY = 'sk_test_threats_4b9c2e8f10';
const SECRET = generateWebhookSecret();
type ErrorJson = { error: { code: string; message: string } };

const context = useSandboxApp(API_KEY, { webhookSecret: SECRET });
const startVerification = (browser: Browser) => startVerificationIn(context.sandbox, browser);
const approve = (sessionCode: string) => approveInSandbox(context.sandbox, sessionCode);

describe('CSRF: another site makes the victim’s browser start or replace a verification', () => {
  // Also proven: security.test.ts "CSRF and bad input on POST /session" (each refusal, 403/415, no
  // upstream session created). Here: the victim's live verification survives every cross-site try.
  it('cross-site restarts with the victim’s cookie are refused and the verification is unchanged', async () => {
    const victim = context.app.browser();
    const before = await startVerification(victim);
    const restart = '{"restart":true}';
    const crossSite: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': '', origin: 'https://evil.example' },
    ];
    for (const headers of crossSite) {
      const res = await victim.fetch<ErrorJson>('POST', '/identity/session', {
        headers: { ...headers, 'content-type': 'application/json' },
        body: restart,
      });
      expect([res.status, res.json.error.code]).toEqual([403, 'CROSS_SITE_REQUEST']);
    }
    // What an HTML form or a "simple" fetch can send without a CORS preflight:
    const simple: [string, string][] = [
      ['text/plain', restart],
      ['application/x-www-form-urlencoded', 'restart=true'],
      ['multipart/form-data; boundary=x', '--x--'],
    ];
    for (const [type, body] of simple) {
      const res = await victim.fetch<ErrorJson>('POST', '/identity/session', {
        headers: { 'sec-fetch-site': '', 'content-type': type },
        body,
      });
      expect([res.status, res.json.error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    }
    // GET never changes state: a cross-site <img src="/identity/session"> is a 405.
    expect((await victim.get('/identity/session', { 'sec-fetch-site': 'cross-site' })).status).toBe(405);
    const after = await victim.post<SessionResponseBody>('/identity/session');
    expect([after.json.sessionCode, after.json.qrCodeUrl]).toEqual([before.sessionCode, before.qrCodeUrl]);
  });
});

describe('IDOR: one user reads or acts on another user’s verification', () => {
  // Also proven: security.test.ts "takes no identification from the client (no IDOR)" and "two users
  // never see each other’s status". Here: the QR image, the creation body and kit.verify().
  it('no route takes an id from the client: QR, POST /session and verify() only ever use the caller’s binding', async () => {
    const alice = context.app.browser();
    const mallory = context.app.browser();
    const aliceSession = await startVerification(alice);
    await approve(aliceSession.sessionCode);
    const aliceQr = await alice.get(aliceSession.qrCodeUrl);
    expect(aliceQr.status).toBe(200);

    // Alice's QR URL (with its token) is worthless without Alice's session.
    const stolen = await mallory.get<ErrorJson>(aliceSession.qrCodeUrl);
    expect([stolen.status, stolen.json.error.code]).toEqual([404, 'NO_VERIFICATION_SESSION']);
    const smuggled = await mallory.post<ErrorJson>('/identity/session', {
      identificationId: aliceSession.identificationId,
    });
    expect([smuggled.status, smuggled.json.error.code]).toEqual([400, 'INVALID_BODY']);

    const malloryQr = (await startVerification(mallory)).qrCodeUrl;
    expect((await mallory.get(aliceSession.qrCodeUrl)).text).not.toBe(aliceQr.text);
    expect((await mallory.get(malloryQr)).text).not.toBe(aliceQr.text);
    const query = `country=TUR&identificationId=${aliceSession.identificationId}`;
    expect((await alice.post<{ verified: boolean }>(`/check-country?${query}`)).json).toEqual({
      verified: true,
    });
    expect((await mallory.post<{ verified: boolean }>(`/check-country?${query}`)).json).toEqual({
      verified: false,
    });
    expect((await mallory.get(`/api/data?identificationId=${aliceSession.identificationId}`)).status).toBe(
      403,
    );
  });
});

describe('Open redirect: the gate’s redirect sends the user to another site', () => {
  // Also proven: security.test.ts "open redirects" (//host, backslashes, absolute URLs, redirectTo
  // checked at creation). Here: encoded variants, and that returnTo read back stays on this site.
  it.each([
    ['//evil.example, encoded', '/%2F%2Fevil.example/x'],
    ['a backslash, encoded', '/%5Cevil.example'],
    ['a tab, encoded', '/%09/evil.example'],
    ['dot segments', '/.//evil.example'],
    ['dot-dot segments', '/..//evil.example'],
    ['encoded dot-dot segments', '/%2e%2e/%2f%2fevil.example'],
    ['an absolute URL in the query', '/account?next=https://evil.example'],
    ['a 3 kB path', `/${'a'.repeat(3000)}`],
  ])('%s: Location and returnTo stay on this site', async (_name, target) => {
    const { port } = new URL(context.app.url);
    const text = await rawExchange(Number(port), [
      `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/html\r\nConnection: close\r\n\r\n`,
    ]);
    expect(text.startsWith('HTTP/1.1 303')).toBe(true);
    const location = /\r\nLocation: ([^\r]*)/i.exec(text)?.[1] ?? '';
    const origin = context.app.url;
    const resolved = new URL(location, origin);
    expect(resolved.origin).toBe(origin);
    expect(resolved.pathname).toBe('/verify');
    const returnTo = resolved.searchParams.get('returnTo');
    // The page that reads returnTo back and navigates to it stays on this site too.
    if (returnTo !== null) expect(new URL(returnTo, origin).origin).toBe(origin);
  });
});

describe('Session fixation: an attacker plants a session id, then rides on the victim’s verification', () => {
  // Also proven: security.test.ts "two users never see each other’s status" (a pre-approval cookie
  // opens nothing). Here: the whole attack with the real sandbox.
  it('the planted id is replaced when the verification starts, and again when it is approved', async () => {
    const attacker = context.app.browser();
    await attacker.post('/login?user=attacker');
    const planted = attacker.cookies.clone();
    const victim = new Browser(context.app.url, planted.clone());

    const started = await startVerification(victim);
    expect(victim.cookieHeader).not.toBe(attacker.cookieHeader);
    expect((await attacker.get('/identity/status')).status).toBe(404);

    const beforeApproval = new Browser(context.app.url, victim.cookies.clone());
    await approve(started.sessionCode);
    expect((await victim.get('/api/data')).status).toBe(200);
    expect(victim.cookieHeader).not.toBe(beforeApproval.cookieHeader);
    for (const stale of [attacker, beforeApproval]) {
      expect((await stale.get('/api/data')).status).toBe(403);
      expect((await stale.get('/identity/status')).status).toBe(404);
    }
  });
});

describe('Webhook forgery, replay and stale timestamps: a fake event changes what the kit believes', () => {
  // Also proven: security.test.ts "webhooks" (wrong secret, stale and future timestamps, missing
  // headers, replayed webhook-id → 204 without effect, a signed "approved" event does not open the gate), and
  // multi-instance.test.ts (a replay to another instance is refused through the shared replayStore).
  it('a valid signature does not cover another body, timestamp or id, and nothing changes', async () => {
    const victim = context.app.browser();
    const { identificationId } = await startVerification(victim);
    const phase = async () => (await victim.get<StatusResponseBody>('/identity/status')).json.phase;
    const id = 'msg_threat_1';
    const timestamp = Math.floor(Date.now() / 1000);
    const signedBody = JSON.stringify({
      type: 'verification_session.created',
      timestamp: new Date().toISOString(),
      data: { verificationSessionId: 'v', identificationId: 'someone-else' },
    });
    const signature = signWebhook({ secret: SECRET, id, timestamp, body: signedBody });
    const tamperedBody = JSON.stringify({
      type: 'identification.submitted',
      timestamp: new Date().toISOString(),
      data: { verificationSessionId: 'v', identificationId },
    });
    const send = (body: string, headers: Record<string, string>) =>
      context.app.browser().fetch<ErrorJson>('POST', '/identity/webhook', {
        body,
        headers: { 'content-type': 'application/json', 'sec-fetch-site': '', ...headers },
      });
    const valid = {
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature,
    };
    for (const [body, headers] of [
      [tamperedBody, valid],
      [signedBody, { ...valid, 'webhook-timestamp': String(timestamp + 1) }],
      [signedBody, { ...valid, 'webhook-id': 'msg_threat_2' }],
      [
        signedBody,
        { ...valid, 'webhook-signature': `${signature.replace(/.$/, 'A')} v1,AAAA v2,${signature.slice(3)}` },
      ],
    ] as const) {
      const res = await send(body, headers);
      expect([res.status, res.json.error.code]).toEqual([401, 'WEBHOOK_SIGNATURE_INVALID']);
    }
    expect(await phase()).toBe('awaiting_user');
    // The genuine delivery passes; its replay is acknowledged (a retry) and changes nothing more.
    expect((await send(signedBody, valid)).status).toBe(204);
    expect((await send(signedBody, valid)).status).toBe(204);
    expect(await phase()).toBe('awaiting_user');
  });
});

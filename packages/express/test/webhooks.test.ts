import { generateWebhookSecret } from '@verify-kit/client';
import { type Browser, deliverWebhook, logLines, type WebhookInput } from '@verify-kit/testkit';
import { describe, expect, it } from 'vitest';
import type { StatusResponseBody } from '../src/index.js';
import { startApp } from './support/app.js';
import { startVerificationOn, useFakeUpstreamApp } from './support/fixtures.js';

const API_KEY = 'sk_test_webhooks_91ad02';
const SECRET = generateWebhookSecret();
const context = useFakeUpstreamApp(API_KEY, { webhookSecret: SECRET });
const startVerification = (browser: Browser) => startVerificationOn(context.upstream, browser);
type ErrorJson = { error: { code: string; message: string } };
/** A webhook delivered to the kit, signed with its secret unless `secret` says otherwise. */
const deliver = (input: Omit<WebhookInput, 'secret'> & { secret?: string }) =>
  deliverWebhook(context.app.browser(), { secret: SECRET, ...input });
const phaseOf = async (browser: Browser) =>
  (await browser.get<StatusResponseBody>('/identity/status')).json.phase;

describe('what a signed webhook changes', () => {
  it('a signed verification_session.cancelled ends the session at once: phase expired, the next start is new', async () => {
    const browser = context.app.browser();
    const identificationId = await startVerification(browser);
    const first = await browser.post<{ qrCodeUrl: string }>('/identity/session');
    const type = 'verification_session.cancelled';
    const forged = await deliver({ secret: generateWebhookSecret(), identificationId, type });
    expect(forged.status).toBe(401);
    expect(await phaseOf(browser)).toBe('awaiting_user');

    expect((await deliver({ identificationId, type })).status).toBe(204);
    expect(await phaseOf(browser)).toBe('expired');
    const next = await browser.post<{ qrCodeUrl: string }>('/identity/session');
    expect(next.json.qrCodeUrl).not.toBe(first.json.qrCodeUrl);
  });

  it('the vendor’s other events are hints: failed re-reads, waiting for approval reads as in review', async () => {
    const browser = context.app.browser();
    const identificationId = await startVerification(browser);
    expect((await deliver({ identificationId, type: 'identification.failed' })).status).toBe(204);
    expect(await phaseOf(browser)).toBe('awaiting_user');
    const waiting = await deliver({
      identificationId,
      type: 'identification.waiting_for_status_change_approval',
    });
    expect(waiting.status).toBe(204);
    expect(await phaseOf(browser)).toBe('in_review');
    expect((await browser.get('/api/data')).status).toBe(403);
  });

  it('a webhook is only a hint: an "approved" event does not open the gate', async () => {
    const browser = context.app.browser();
    const identificationId = await startVerification(browser);
    expect((await deliver({ identificationId, type: 'identification.approved' })).status).toBe(204);
    expect((await browser.get('/api/data')).status).toBe(403);
  });
});

describe('which deliveries the kit acts on', () => {
  it('refuses forged and stale deliveries; acknowledges replays and unknown bodies; nothing changes', async () => {
    const browser = context.app.browser();
    const identificationId = await startVerification(browser);
    expect(await phaseOf(browser)).toBe('awaiting_user');

    const forged = await deliver({ secret: generateWebhookSecret(), identificationId });
    expect([forged.status, forged.json.error?.code]).toEqual([401, 'WEBHOOK_SIGNATURE_INVALID']);
    const stale = await deliver({ identificationId, timestamp: Math.floor(Date.now() / 1000) - 6 * 60 });
    expect([stale.status, stale.json.error?.code]).toEqual([401, 'WEBHOOK_TIMESTAMP_STALE']);
    const future = await deliver({ identificationId, timestamp: Math.floor(Date.now() / 1000) + 6 * 60 });
    expect(future.status).toBe(401);
    const unsigned = await context.app.browser().fetch<ErrorJson>('POST', '/identity/webhook', {
      body: '{}',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': '' },
    });
    expect([unsigned.status, unsigned.json.error.code]).toEqual([400, 'WEBHOOK_HEADERS_MISSING']);
    // A signed body the kit does not know (a dashboard test ping, a new event type): 2xx, ignored.
    expect((await deliver({ identificationId, rawBody: '{"type":1}' })).status).toBe(204);
    const created = await deliver({ identificationId, id: 'msg_once', type: 'verification_session.created' });
    expect(created.status).toBe(204);
    // The same webhook-id again (a retry after a lost 2xx): 2xx, and its content is not acted on.
    const replay = await deliver({ identificationId, id: 'msg_once' });
    expect([replay.status, replay.text]).toEqual([204, '']);
    // None of these told the kit the document was submitted.
    expect(await phaseOf(browser)).toBe('awaiting_user');

    const good = await deliver({ identificationId, id: 'msg_new' });
    expect([good.status, good.text]).toEqual([204, '']);
    // The upstream here does not send documentSubmitted: the verified webhook is the hint.
    expect(await phaseOf(browser)).toBe('in_review');
  });
});

describe('configuring webhooks', () => {
  it('accepts any secret of a rotation, and a custom verifier', async () => {
    const next = generateWebhookSecret();
    const rotating = await startApp({
      baseUrl: context.upstream.url,
      apiKey: API_KEY,
      webhookSecret: [next, SECRET],
    });
    const custom = await startApp({
      baseUrl: context.upstream.url,
      apiKey: API_KEY,
      webhookVerifier: ({ headers, body }) => {
        if (headers['x-shared-token'] !== 'let-me-in' || body.length === 0) throw new Error('nope');
        return { id: String(headers['x-delivery']) };
      },
    });
    try {
      for (const secret of [next, SECRET]) {
        expect((await deliverWebhook(rotating.browser(), { secret, identificationId: 'x' })).status).toBe(
          204,
        );
      }
      const payload = JSON.stringify({
        type: 'identification.submitted',
        timestamp: 't',
        data: { verificationSessionId: 'v', identificationId: 'i' },
      });
      const send = (token: string) =>
        custom.browser().fetch<ErrorJson>('POST', '/identity/webhook', {
          body: payload,
          headers: { 'content-type': 'application/json', 'x-shared-token': token, 'x-delivery': 'd1' },
        });
      const refused = await send('guess');
      expect([refused.status, refused.json.error.code]).toEqual([401, 'WEBHOOK_SIGNATURE_INVALID']);
      expect((await send('let-me-in')).status).toBe(204);
      // The same delivery again (a retry): acknowledged, not acted on twice.
      expect((await send('let-me-in')).status).toBe(204);
    } finally {
      await rotating.close();
      await custom.close();
    }
  });

  it('says so when no secret is configured, or when the app parsed the body first', async () => {
    const unconfigured = await startApp({ baseUrl: context.upstream.url, apiKey: API_KEY });
    const parsedFirst = await startApp(
      { baseUrl: context.upstream.url, apiKey: API_KEY, webhookSecret: SECRET },
      { jsonFirst: true },
    );
    try {
      const a = await deliverWebhook(unconfigured.browser(), { secret: SECRET, identificationId: 'x' });
      expect([a.status, a.json.error?.code]).toEqual([501, 'WEBHOOK_NOT_CONFIGURED']);
      const b = await deliverWebhook(parsedFirst.browser(), { secret: SECRET, identificationId: 'x' });
      expect([b.status, b.json.error?.code]).toEqual([500, 'WEBHOOK_BODY_ALREADY_PARSED']);
      expect((b.json as ErrorJson).error.message).toMatch(
        /mount kit\.router before app\.use\(express\.json\(\)\)/,
      );
      expect(logLines.some((line) => line.includes('no webhookSecret'))).toBe(true);
    } finally {
      await unconfigured.close();
      await parsedFirst.close();
    }
  });
});

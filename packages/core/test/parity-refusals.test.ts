// What both doors refuse, alike (support/doors.ts): no verification, a method a route does not
// answer, a bad session request, webhooks unsigned, badly signed or too large, an address over its
// creation limit.
import { generateWebhookSecret } from '@verify-kit/client';
import type { SessionResponseBody } from '@verify-kit/protocol';
import { type BrowserResponse, deliverWebhook, expectKeyNeverLeaked } from '@verify-kit/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { openByCode } from '../../express/test/support/sandbox.js';
import { API_KEY, alike, seen, useDoors, WEBHOOK_SECRET, WIDGET_OPTIONS } from './support/doors.js';

afterAll(() => expectKeyNeverLeaked(API_KEY));

describe('refusals: both doors answer alike', () => {
  const doors = useDoors(WIDGET_OPTIONS);

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

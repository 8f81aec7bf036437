// The widget's sequences on both doors (support/doors.ts): a session created, reused and restarted,
// its QR, an approval, a long-poll woken by the webhook, and the same without long-polls.
import type { SessionResponseBody, StatusResponseBody } from '@verify-kit/protocol';
import { deliverWebhook, expectKeyNeverLeaked } from '@verify-kit/testkit';
import QRCode from 'qrcode';
import { afterAll, describe, expect, it } from 'vitest';
import { openByCode, submitDocument, waitForStatus } from '../../express/test/support/sandbox.js';
import { API_KEY, alike, seen, useDoors, WEBHOOK_SECRET, WIDGET_OPTIONS } from './support/doors.js';

afterAll(() => expectKeyNeverLeaked(API_KEY));

const qrSvgOf = (deepLink: string) =>
  QRCode.toString(deepLink, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });

describe('the widget protocol: both doors answer alike', () => {
  const doors = useDoors(WIDGET_OPTIONS);

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

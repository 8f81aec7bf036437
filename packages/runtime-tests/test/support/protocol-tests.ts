import { randomUUID } from 'node:crypto';
import { generateWebhookSecret } from '@verify-kit/client';
import type { ErrorResponseBody, SessionResponseBody, StatusResponseBody } from '@verify-kit/protocol';
import { createSandboxControl } from '@verify-kit/sandbox/control';
import { deliverWebhook } from '@verify-kit/testkit';
import { expect, it } from 'vitest';
import type { Target } from './use-runtime.js';
import { within } from './within.js';

// The widget's protocol and the webhook receiver over real HTTP, on whichever runtime and app
// `target` is: POST /session, GET /status and its long-poll, POST /webhook.

/** How long an answer the webhook should bring may take (it takes milliseconds): a failure's bound. */
const WAKE_BOUND_MS = 5_000;
/** How long the service takes to answer while the webhook's read is under way (the proxy holds it). */
export const SLOW_SERVICE_MS = 300;

export function protocolTests(target: () => Target): void {
  it('POST /session creates a verification session and seals the visitor cookie; a reload reuses it', async () => {
    const browser = target().browser();
    const created = await browser.post<SessionResponseBody>('/identity/session');
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ phase: 'awaiting_user', status: 'IN_AUTOMATIC_REVIEW' });
    expect(created.json.sessionCode).toMatch(/^[A-Z2-9]{8}$/);
    // __Host-vk_visitor where the kit takes the app to be served over https (Workers: production).
    expect(browser.cookies.names()).toEqual([expect.stringMatching(/^(__Host-)?vk_visitor$/)]);

    const reloaded = await browser.post<SessionResponseBody>('/identity/session');
    expect(reloaded.status).toBe(201);
    expect(reloaded.json.sessionCode).toBe(created.json.sessionCode);
  });

  it('GET /status: 404 before a session, then the session’s status and phase', async () => {
    const browser = target().browser();
    const none = await browser.get<ErrorResponseBody>('/identity/status');
    expect([none.status, none.json.error.code]).toEqual([404, 'NO_VERIFICATION_SESSION']);

    expect((await browser.post('/identity/session')).status).toBe(201);
    const status = await browser.get<StatusResponseBody>('/identity/status');
    expect(status.status).toBe(200);
    expect(status.json).toMatchObject({ status: 'IN_AUTOMATIC_REVIEW', phase: 'awaiting_user' });
  });

  /**
   * The long-poll's wake-up, as a function: it throws (`within`'s message) when the long-poll is not
   * answered in time. The webhook is delivered late (stamped 5 s ago: a retried delivery, or the
   * service's clock behind the app's), so its event is older than the kit's last read and the kit
   * does not read for the event itself: the long-poll's re-read is the only one it starts.
   */
  const wakeUp = async () => {
    const { instance, sandbox, proxy, webhookSecret } = target();
    const browser = target().browser();
    const created = await browser.post<SessionResponseBody>('/identity/session');
    const control = createSandboxControl(sandbox);
    const { id, identificationId } = await control.sessionByCode(created.json.sessionCode);

    const mark = instance.logs.mark();
    const leaving = new AbortController();
    const polling = browser.fetch<StatusResponseBody>('GET', '/identity/status?wait=25&since=awaiting_user', {
      signal: leaving.signal,
    });
    polling.catch(() => {}); // left unanswered when the wake-up fails; aborted below
    try {
      await instance.logs.waitFor(/GET \/status: long-poll waiting/, mark);
      await control.submitDocument(id, { scenario: 'manual_review' });
      await control.waitForStatus(identificationId, 'IN_MANUAL_REVIEW');
      // A real service takes a while to answer (the sandbox, a millisecond): the read the webhook
      // starts outlives the webhook's own request.
      proxy.setRates({ delay: 1 });
      const webhook = await deliverWebhook(target().service(), {
        secret: webhookSecret,
        identificationId,
        type: 'identification.in_manual_review',
        status: 'IN_MANUAL_REVIEW',
        timestamp: Math.floor(Date.now() / 1000) - 5,
      });
      expect(webhook.status).toBe(204);
      // The app re-reads a waiting long-poll's status every 60 s, past the 25 s wait: only the
      // webhook can have woken it with the new status.
      const answered = await within(WAKE_BOUND_MS, polling, 'the long-poll, after the webhook');
      expect(answered.status).toBe(200);
      expect(answered.json).toMatchObject({ status: 'IN_MANUAL_REVIEW' });
      expect(answered.json.phase).not.toBe('awaiting_user');
      const status = await within(
        WAKE_BOUND_MS,
        browser.get<StatusResponseBody>('/identity/status'),
        'GET /status',
      );
      expect([status.status, status.json.status]).toEqual([200, 'IN_MANUAL_REVIEW']);
    } finally {
      proxy.setRates({});
      leaving.abort();
    }
  };
  it('a long-poll on GET /status is woken by a signed webhook however long the service takes to answer the read it starts, and the status reads after it', () =>
    wakeUp());

  it('POST /webhook: signed 204, a bad signature 401 and a stale one refused, a replay acknowledged', async () => {
    const { webhookSecret } = target();
    const service = target().service();
    const identificationId = randomUUID();
    const id = `msg_${randomUUID()}`;

    const signed = await deliverWebhook(service, { secret: webhookSecret, identificationId, id });
    expect(signed.status).toBe(204);
    const replayed = await deliverWebhook(service, { secret: webhookSecret, identificationId, id });
    expect(replayed.status).toBeGreaterThanOrEqual(200);
    expect(replayed.status).toBeLessThan(300);

    const forged = await deliverWebhook(service, { secret: generateWebhookSecret(), identificationId });
    expect([forged.status, forged.json.error?.code]).toEqual([401, 'WEBHOOK_SIGNATURE_INVALID']);
    const stale = await deliverWebhook(service, {
      secret: webhookSecret,
      identificationId,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    expect([400, 401]).toContain(stale.status);
    expect(stale.json.error?.code).toBe('WEBHOOK_TIMESTAMP_STALE');
  });
}

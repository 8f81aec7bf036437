import { generateWebhookSecret, WebhookPayloadSchema } from '@verify-kit/client';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, harness, sleep } from './helpers.js';
import { receiver, until } from './webhook-receiver.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function setup(answer?: (n: number) => number, extra: object = {}) {
  const secret = generateWebhookSecret();
  const r = await receiver(secret, answer);
  const h: Harness = await harness({
    webhookUrl: r.url,
    webhookSecret: secret,
    webhookRetryBaseMs: 5,
    ...extra,
  });
  cleanups.push(
    () => r.close(),
    () => h.sandbox.close(),
  );
  return { h, r, secret };
}

describe('webhooks: the events of a verification (docs/architecture.md, decision 13)', () => {
  it('delivers signed events through the whole lifecycle, each verified by the client', async () => {
    const { h, r } = await setup();
    const s = await h.createSession();
    await h.submit(s.id);
    await h.reviewed(s.id, s.identificationId);
    const expected = [
      'verification_session.created',
      'identification.created',
      'identification.submitted',
      'identification.in_automatic_review',
      'identification.approved',
      'verification_session.completed',
    ];
    await until(() => r.received.length >= expected.length, 'six events');
    expect(r.received.map((e) => e.type).sort()).toEqual([...expected].sort());
    expect(r.received.every((e) => e.verified)).toBe(true);
    for (const e of r.received) {
      const payload = WebhookPayloadSchema.parse(JSON.parse(e.body));
      expect(payload.data).toMatchObject({
        verificationSessionId: s.id,
        identificationId: s.identificationId,
      });
      expect(Number.isNaN(Date.parse(payload.timestamp))).toBe(false);
    }
    expect(r.received.find((e) => e.type === 'identification.approved')?.status).toBe('APPROVED');
    expect(new Set(r.received.map((e) => e.id)).size).toBe(expected.length);
    expect(r.received.every((e) => /^msg_/.test(e.id))).toBe(true);
  });

  it('sends the event of each outcome and a reviewer decision', async () => {
    const { h, r } = await setup();
    const s = await h.createSession();
    await h.submit(s.id, { scenario: 'manual_review' });
    await h.reviewed(s.id, s.identificationId);
    await h.request('POST', `/sandbox/identifications/${s.identificationId}/decision`, {
      json: { status: 'REJECTED' },
    });
    await until(() => r.received.some((e) => e.type === 'verification_session.completed'), 'completed');
    const types = r.received.map((e) => e.type);
    expect(types).toContain('identification.in_manual_review');
    expect(types).toContain('identification.rejected');
  });

  it('a processing error: identification.failed, then resubmission required', async () => {
    const { h, r } = await setup();
    const s = await h.createSession();
    await h.submit(s.id, { scenario: 'processing_error' });
    await until(
      () => r.received.some((e) => e.type === 'identification.resubmission_required'),
      'resubmission',
    );
    const types = r.received.map((e) => e.type);
    expect(types.indexOf('identification.failed')).toBeGreaterThan(-1);
    expect(types.indexOf('identification.failed')).toBeLessThan(
      types.indexOf('identification.resubmission_required'),
    );
  });
});

describe('webhooks: the events of the control API and of expiry', () => {
  it('sends the signed event of a control-API status change (an approval revoked)', async () => {
    const { h, r } = await setup();
    const s = await h.createSession();
    await h.submit(s.id);
    expect(await h.reviewed(s.id, s.identificationId)).toBe('APPROVED');
    await until(() => r.received.some((e) => e.type === 'identification.approved'), 'approved');
    const res = await h.request('POST', `/sandbox/identifications/${s.identificationId}/status`, {
      json: { status: 'REJECTED' },
    });
    expect(res.status).toBe(200);
    const rejected = await until(
      () => r.received.find((e) => e.type === 'identification.rejected'),
      'identification.rejected',
    );
    expect(rejected.verified).toBe(true);
    expect(JSON.parse(rejected.body).data).toEqual({
      verificationSessionId: s.id,
      identificationId: s.identificationId,
      status: 'REJECTED',
    });
    // A final status completes the session again, like any other final transition.
    await until(
      () => r.received.filter((e) => e.type === 'verification_session.completed').length >= 2,
      'a second completed',
    );
  });

  it('sends verification_session.cancelled when a session expires before the person acted', async () => {
    const { h, r } = await setup();
    const s = await h.createSession({ duration: 1 });
    h.sandbox.advanceClock(60_000);
    const cancelled = await until(
      () => r.received.find((e) => e.type === 'verification_session.cancelled'),
      'cancelled',
    );
    expect(JSON.parse(cancelled.body).data.verificationSessionId).toBe(s.id);
  });
});

describe('webhooks: delivery', () => {
  it('retries a failed delivery with the same webhook-id until it succeeds, and logs every attempt', async () => {
    // The receiver fails the first two requests it gets, whatever they are.
    const { h, r } = await setup((n) => (n <= 2 ? 503 : 204));
    const s = await h.createSession();
    await until(
      () => r.received.filter((e) => e.type === 'verification_session.created').length >= 1,
      'created',
    );
    await until(() => r.received.length >= 4, 'retries');
    const byId = new Map<string, number[]>();
    r.received.forEach((e, i) => {
      byId.set(e.id, [...(byId.get(e.id) ?? []), i + 1]);
    });
    const retried = [...byId.entries()].filter(([, attempts]) => attempts.length > 1);
    expect(retried.length).toBeGreaterThan(0);
    expect(r.received.every((e) => e.verified)).toBe(true);

    const log = await until(async () => {
      const res = await h.request('GET', `/sandbox/webhooks/deliveries?verificationSessionId=${s.id}`);
      const ok = res.body.deliveries.filter((d: { ok: boolean }) => d.ok).length;
      return ok >= 2 ? res.body : undefined;
    }, 'log');
    const first = retried[0]![0];
    const attempts = log.deliveries.filter((d: { webhookId: string }) => d.webhookId === first);
    expect(attempts[0]).toMatchObject({ attempt: 1, status: 503, ok: false });
    expect(attempts[0].nextAttemptAt).not.toBeNull();
    expect(attempts.at(-1)).toMatchObject({ ok: true, status: 204 });
  });

  it('retries on connection errors and gives up after webhookMaxAttempts', async () => {
    const secret = generateWebhookSecret();
    const dead = await receiver(secret);
    await dead.close(); // nothing listens on that port any more
    const h = await harness({
      webhookUrl: dead.url,
      webhookSecret: secret,
      webhookRetryBaseMs: 1,
      webhookMaxAttempts: 3,
    });
    cleanups.push(() => h.sandbox.close());
    const s = await h.createSession();
    const deliveries = await until(async () => {
      const res = await h.request(
        'GET',
        `/sandbox/webhooks/deliveries?identificationId=${s.identificationId}`,
      );
      return res.body.deliveries.length >= 6 ? res.body.deliveries : undefined;
    }, 'six failed attempts');
    const created = deliveries.filter(
      (d: { eventType: string }) => d.eventType === 'verification_session.created',
    );
    expect(created.map((d: { attempt: number }) => d.attempt)).toEqual([1, 2, 3]);
    expect(new Set(created.map((d: { webhookId: string }) => d.webhookId)).size).toBe(1);
    expect(created.every((d: { ok: boolean; status: null }) => !d.ok && d.status === null)).toBe(true);
    expect(created[2].nextAttemptAt).toBeNull();
    expect(typeof created[0].error).toBe('string');
  });

  it('the delivery log needs the key and says when no webhook is configured', async () => {
    const h = await harness();
    cleanups.push(() => h.sandbox.close());
    expect((await h.request('GET', '/sandbox/webhooks/deliveries', { key: null })).status).toBe(401);
    const res = await h.request('GET', '/sandbox/webhooks/deliveries');
    expect(res.body).toEqual({ configured: false, deliveries: [] });
  });
});

describe('webhooks: dropped on purpose (chaos runs)', () => {
  it('drops every event whole at fraction 1 (logged as dropped, never sent, never retried), none at 0', async () => {
    const { h, r } = await setup();
    expect(await h.control.dropWebhooks(1)).toEqual({ fraction: 1 });
    const lost = await h.createSession();
    await h.submit(lost.id);
    await h.reviewed(lost.id, lost.identificationId);
    await sleep(50);
    expect(r.received).toEqual([]);
    const dropped = await h.control.deliveries({ identificationId: lost.identificationId });
    expect(dropped.length).toBeGreaterThan(0);
    expect(dropped.every((d) => d.dropped === true && !d.ok && d.nextAttemptAt === null)).toBe(true);

    expect(await h.control.dropWebhooks(0)).toEqual({ fraction: 0 });
    const kept = await h.createSession();
    await h.submit(kept.id);
    await h.reviewed(kept.id, kept.identificationId);
    await until(() => r.received.some((e) => e.type === 'identification.approved'), 'the approval delivered');
    expect(r.received.every((e) => e.verified)).toBe(true);
  });

  it('refuses a fraction outside 0..1 (400), without the key (401), and without a webhook URL (409)', async () => {
    const { h } = await setup();
    expect((await h.request('POST', '/sandbox/webhooks/drop', { json: { fraction: 1.5 } })).status).toBe(400);
    expect((await h.request('POST', '/sandbox/webhooks/drop', { json: { fraction: '0.2' } })).status).toBe(
      400,
    );
    expect(
      (await h.request('POST', '/sandbox/webhooks/drop', { json: { fraction: 0.2 }, key: null })).status,
    ).toBe(401);
    const bare = await harness();
    cleanups.push(() => bare.sandbox.close());
    const refused = await bare.request('POST', '/sandbox/webhooks/drop', { json: { fraction: 0.2 } });
    expect([refused.status, refused.body.error?.code]).toEqual([409, 'WEBHOOK_NOT_CONFIGURED']);
  });
});

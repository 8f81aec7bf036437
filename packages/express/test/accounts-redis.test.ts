// A verification belongs to the account when several instances share a real redis-server as
// their binding store; the sandbox's webhooks reach instance A only.
import { generateWebhookSecret } from '@verify-kit/client';
import { until } from '@verify-kit/testkit';
import { describe, expect, it } from 'vitest';
import type { StatusChangeEvent } from '../src/index.js';
import { verifyIn } from './support/fixtures.js';
import { useRedisPair } from './support/redis.js';
import { decide, waitForStatus } from './support/sandbox.js';

const API_KEY = 'sk_test_accounts_redis_6d0e';

// The events of both instances.
const events: StatusChangeEvent[] = [];
const env = useRedisPair(API_KEY, generateWebhookSecret(), {
  onStatusChange: (event) => {
    events.push(event);
  },
});

describe('status change events of two instances sharing a Redis binding store', () => {
  it('exactly one APPROVED event across two instances both reading the status', async () => {
    const onA = await env.a.signedIn('ada');
    const onB = await env.b.signedIn('ada');
    const identificationId = await verifyIn(env.sandbox, onA);
    // Both instances read the approval, more than once, at the same time.
    const reads = await Promise.all([onA, onB, onA, onB].map((device) => device.get('/api/data')));
    expect(reads.map((res) => res.status)).toEqual([200, 200, 200, 200]);
    await until(() => events.some((event) => event.status === 'APPROVED'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const approved = events.filter((e) => e.identificationId === identificationId && e.status === 'APPROVED');
    expect(approved).toHaveLength(1);
    expect(approved[0]).toMatchObject({ accountId: 'ada', phase: 'approved' });
    expect(approved[0]!.previousStatus).toMatch(/^IN_/);
  });

  it('tells a decision with no browser open: the webhook triggers one read', async () => {
    const device = await env.b.signedIn('grace');
    const identificationId = await verifyIn(env.sandbox, device, 'manual_review');
    await waitForStatus(env.sandbox, identificationId, 'IN_MANUAL_REVIEW');
    await until(() => events.some((e) => e.identificationId === identificationId));
    // Nobody polls or opens a gated page: only the webhook to A can lead to the event.
    await decide(env.sandbox, identificationId, 'REJECTED');
    await until(() => events.some((e) => e.identificationId === identificationId && e.status === 'REJECTED'));
    const rejected = events.filter((e) => e.identificationId === identificationId && e.status === 'REJECTED');
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toMatchObject({
      accountId: 'grace',
      previousStatus: 'IN_MANUAL_REVIEW',
      phase: 'rejected',
    });
  });
});

describe('one binding in Redis for every instance', () => {
  it('after forget on one instance, every instance refuses', async () => {
    const onA = await env.a.signedIn('linus');
    const onB = await env.b.signedIn('linus');
    await verifyIn(env.sandbox, onA);
    expect((await onB.get('/api/data')).status).toBe(200);
    await onA.post('/forget');
    expect((await onA.get('/api/data')).status).toBe(403);
    expect((await onB.get('/api/data')).status).toBe(403);
  });

  it('Redis down: the gate fails closed (503), never a pass; health says so', async () => {
    const device = await env.b.signedIn('edsger');
    await verifyIn(env.sandbox, device);
    expect((await device.get('/api/data')).status).toBe(200);
    expect(await env.b.kit.health()).toMatchObject({ ok: true, store: 'ok' });
    await env.redis.stop();
    const res = await device.get<{ error: { code: string } }>('/api/data');
    expect([res.status, res.json.error.code]).toEqual([503, 'BINDING_STORE_UNAVAILABLE']);
    expect(await env.b.kit.health()).toMatchObject({ ok: false, store: 'down' });
  });
});

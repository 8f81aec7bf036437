// Everything stored expires (issue 26, finding 7): after an anonymous visitor and a signed-in
// account start verifications and the service's signed webhooks arrive, every key the kit wrote to
// a real redis-server has a time to live, and each kind of key has its own prefix (webhook ids
// no longer under the status records' `verify-kit:status:`). Over real HTTP against the sandbox.
import { generateWebhookSecret } from '@verify-kit/client';
import { until } from '@verify-kit/testkit';
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import type { AuditEvent, SessionResponseBody } from '../src/index.js';
import { startWebhookingSandbox, useRedisAndSandbox } from './support/fixtures.js';
import { startRedisKit } from './support/redis.js';
import { submitDocument } from './support/sandbox.js';

const API_KEY = 'sk_test_stored_expiry_71aa';
const env = useRedisAndSandbox(API_KEY);
const DAY_MS = 86_400_000;

describe('what the kit keeps in Redis', () => {
  it('every key expires, within the retention, under a prefix of its own kind', async () => {
    const secret = generateWebhookSecret();
    const { sandbox, listening } = await startWebhookingSandbox(API_KEY, secret);
    const audits: AuditEvent[] = [];
    const instance = await startRedisKit(
      env.redis.url,
      {
        baseUrl: sandbox.url,
        apiKey: API_KEY,
        webhookSecret: secret,
        onStatusChange: () => {},
        onAudit: (event) => audits.push(event),
      },
      { listening, bus: true },
    );
    const { app } = instance;
    const client = createClient({ url: env.redis.url });
    await client.connect();
    try {
      const visitor = app.browser();
      const account = await app.signedIn('ada');
      for (const device of [visitor, account]) {
        const started = await device.post<SessionResponseBody>('/identity/session');
        expect(started.status).toBe(201);
        await submitDocument(sandbox, started.json.sessionCode, 'manual_review');
      }
      await until(() => audits.filter((a) => a.type === 'webhook.accepted').length >= 4);

      const keys = (await client.keys('*')).sort();
      const kinds = new Set(keys.map((key) => key.replace(/[^:]+$/, '')));
      expect([...kinds]).toEqual(
        expect.arrayContaining(['verify-kit:account:', 'verify-kit:status:', 'verify-kit:webhook-id:']),
      );
      // Webhook ids no longer live among the status records (`verify-kit:status:webhook-id:` before).
      expect([...kinds].filter((kind) => kind.startsWith('verify-kit:status:'))).toEqual([
        'verify-kit:status:',
      ]);
      for (const key of keys) {
        const ttl = await client.pTTL(key);
        expect(ttl, key).toBeGreaterThan(0);
        // The longest retention: an account's binding, its session's end + 365 days.
        expect(ttl, key).toBeLessThanOrEqual(366 * DAY_MS);
      }
      // An anonymous visitor's pending record goes within days, not a year; so does each claim to
      // tell one of its events (`<identification>#<event id>`: a day to tell it, then the same days).
      const statusTtls = await Promise.all(
        keys.filter((key) => key.startsWith('verify-kit:status:')).map((key) => client.pTTL(key)),
      );
      expect(keys.filter((key) => /^verify-kit:status:[^#]+$/.test(key))).toHaveLength(2);
      for (const ttl of statusTtls) expect(ttl).toBeLessThanOrEqual(8 * DAY_MS);
    } finally {
      await client.close();
      await instance.close();
      await sandbox.close();
    }
  });
});

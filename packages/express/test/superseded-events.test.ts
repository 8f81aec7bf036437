// Events tell only the truth of the binding (issue 26, finding 5): an account starts verification A,
// restarts (B replaces A), and the phone then completes A. The gate refuses the account (B is not
// approved), so no event may say `{ accountId, APPROVED }` of A: an app that trusts events would mark
// the account verified. With the memory store and the Redis store (a real redis-server), the real
// sandbox sending its signed webhooks.
import { generateWebhookSecret } from '@verify-kit/client';
import {
  capturingLogger,
  expectKeyNeverLeaked,
  type RedisServer,
  startRedisServer,
  until,
} from '@verify-kit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AuditEvent,
  type BindingStore,
  createMemoryBindingStore,
  type SessionResponseBody,
  type StatusChangeEvent,
} from '../src/index.js';
import { createRedisBindingStore } from '../src/redis.js';
import { signedInUser, startApp } from './support/app.js';
import { approveInSandbox, startWebhookingSandbox } from './support/fixtures.js';
import { openByCode } from './support/sandbox.js';

const API_KEY = 'sk_test_superseded_4b7c';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
  expectKeyNeverLeaked(API_KEY);
});

/** The real sandbox signing webhooks to an app on `store`, each account's events and audit kept. */
async function appTelling(store: BindingStore) {
  const secret = generateWebhookSecret();
  const { sandbox, listening } = await startWebhookingSandbox(API_KEY, secret);
  const events: StatusChangeEvent[] = [];
  const audits: AuditEvent[] = [];
  const app = await startApp(
    {
      baseUrl: sandbox.url,
      apiKey: API_KEY,
      accountOf: signedInUser,
      bindingStore: store,
      webhookSecret: secret,
      logger: capturingLogger(),
      onStatusChange: (event) => {
        events.push(event);
      },
      onAudit: (event) => audits.push(event),
    },
    { listening },
  );
  const close = async () => {
    await app.close();
    await sandbox.close();
  };
  return { sandbox, app, events, audits, close };
}

async function restartThenCompleteTheOld(store: BindingStore) {
  const { sandbox, app, events, audits, close } = await appTelling(store);
  try {
    const device = await app.signedIn('ada');
    const first = await device.post<SessionResponseBody>('/identity/session');
    const old = await openByCode(sandbox, first.json.sessionCode);
    const restarted = await device.post<SessionResponseBody>('/identity/session', { restart: true });
    expect(restarted.json.sessionCode).not.toBe(first.json.sessionCode);

    // The phone still has A open and completes it; the service tells the kit by webhook.
    await approveInSandbox(sandbox, first.json.sessionCode);
    await until(() =>
      audits.some(
        (a) =>
          a.type === 'webhook.accepted' &&
          a.identificationId === old.identificationId &&
          a.detail === 'identification.approved',
      ),
    );
    expect((await device.get('/api/data')).status).toBe(403);
    expect((await app.kit.statusOfAccount('ada'))?.approved).toBe(false);

    // B, the bound one, completes too: its event comes (and shows the events are flowing).
    const current = await approveInSandbox(sandbox, restarted.json.sessionCode);
    await until(() => events.some((e) => e.identificationId === current && e.status === 'APPROVED'));
    expect((await device.get('/api/data')).status).toBe(200);
    expect(events.filter((e) => e.identificationId === old.identificationId)).toEqual([]);
    expect(events.filter((e) => e.status === 'APPROVED')).toEqual([
      expect.objectContaining({ accountId: 'ada', identificationId: current }),
    ]);
    expect(await store.getStatus(old.identificationId)).toBeUndefined();
  } finally {
    await close();
  }
}

describe('a verification replaced by a restart tells nothing when it completes later', () => {
  it('memory store: no APPROVED event of the old one, the gate refuses until the new one is approved', async () => {
    await restartThenCompleteTheOld(createMemoryBindingStore());
  });

  it('Redis store: the same across the shared store', async () => {
    const store = createRedisBindingStore({
      url: redis.url,
      prefix: 'superseded:',
      logger: capturingLogger(),
    });
    try {
      await restartThenCompleteTheOld(store);
    } finally {
      await store.close();
    }
  });
});

describe('a creation that fails between the status record and the binding', () => {
  it('the next POST /session starts over, and the approval is told once', async () => {
    const memory = createMemoryBindingStore();
    let failNextRecord = true;
    // The integrator's store fails one write (the status record of a new verification), then recovers.
    const store: BindingStore = {
      ...memory,
      compareAndSetStatus(...args) {
        if (!failNextRecord) return memory.compareAndSetStatus(...args);
        failNextRecord = false;
        throw new Error('deadlock detected');
      },
    };
    const { sandbox, app, events, close } = await appTelling(store);
    try {
      const device = await app.signedIn('ada');
      const failed = await device.post<{ error: { code: string } }>('/identity/session');
      expect([failed.status, failed.json.error.code]).toEqual([503, 'BINDING_STORE_UNAVAILABLE']);
      const started = await device.post<SessionResponseBody>('/identity/session');
      expect(started.status).toBe(201);
      const identificationId = await approveInSandbox(sandbox, started.json.sessionCode);
      expect((await device.get('/api/data')).status).toBe(200);
      await until(() => events.some((e) => e.status === 'APPROVED'), 'the approval told');
      expect(events.filter((e) => e.status === 'APPROVED')).toMatchObject([
        { accountId: 'ada', identificationId, status: 'APPROVED' },
      ]);
    } finally {
      await close();
    }
  });
});

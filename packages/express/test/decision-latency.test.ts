// A person waiting for a decision learns it soon after it is made, when no webhook says so (issue 40,
// finding 9): a long-poll waiting on a pending verification has the status re-read every
// PENDING_INTERVAL_MS, not every pollIntervalMs; and a long-poll that starts while the store is away
// is held until the store is back, instead of a 503 the widget would wait seconds to ask again after. Real HTTP, the fake
// upstream (no webhooks), a real redis-server stopped and started again on its data.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PENDING_INTERVAL_MS } from '@verify-kit/core/internal/status/status-watch';
import {
  type Browser,
  capturingLogger,
  expectKeyNeverLeaked,
  type FakeUpstream,
  type RedisServer,
  startFakeUpstream,
  startRedisServer,
  until,
} from '@verify-kit/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { StatusResponseBody } from '../src/index.js';
import { createRedisBindingStore } from '../src/redis.js';
import { signedInUser, startApp, type TestApp } from './support/app.js';

const API_KEY = 'sk_test_decision_latency_3c9d';
/** Far above the pending interval: a decision seen only at the next pollIntervalMs would be late. */
const POLL_INTERVAL_MS = 10_000;

let dataDir: string;
let redis: RedisServer;
let upstream: FakeUpstream;
let app: TestApp | undefined;
const lines: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'verify-kit-decision-latency-'));
  [redis, upstream] = await Promise.all([startRedisServer({ dataDir }), startFakeUpstream()]);
});
afterEach(async () => {
  await app?.close();
  app = undefined;
});
afterAll(async () => {
  await Promise.all([upstream?.close(), redis?.stop()]);
  rmSync(dataDir, { recursive: true, force: true });
  expectKeyNeverLeaked(API_KEY);
});

/** `user` signed in on a new app, with a verification the service has as `status`. */
async function pending(user: string, status: string, store?: 'redis') {
  app = await startApp({
    baseUrl: upstream.url,
    apiKey: API_KEY,
    accountOf: signedInUser,
    pollIntervalMs: POLL_INTERVAL_MS,
    logger: capturingLogger(lines),
    ...(store === 'redis' ? { bindingStore: createRedisBindingStore({ url: redis.url }) } : {}),
  });
  const device = await app.signedIn(user);
  expect((await device.post('/identity/session')).status).toBe(201);
  const identificationId = upstream.lastIdentificationId();
  upstream.statuses.set(identificationId, status);
  const { phase } = (await device.get<StatusResponseBody>('/identity/status')).json;
  return { device, identificationId, phase };
}

const longPoll = (device: Browser, since: string) =>
  device.get<StatusResponseBody>(`/identity/status?wait=25&since=${since}`);

/** Resolves once the app logged a line with `text` after line `from`. */
const logged = (text: string, from: number) =>
  until(() => lines.slice(from).some((line) => line.includes(text)), text);

describe('a decision with no webhook reaches the person waiting for it', () => {
  // In manual review; and still showing the QR as far as the kit knows (the submission's webhook
  // was lost too: the decision comes while the long-poll waits on awaiting_user).
  for (const [status, since] of [
    ['IN_MANUAL_REVIEW', 'in_manual_review'],
    ['IN_AUTOMATIC_REVIEW', 'awaiting_user'],
  ]) {
    it(`within the pending interval, not pollIntervalMs (${since})`, async () => {
      const { device, identificationId, phase } = await pending(`ada-${since}`, status ?? '');
      expect(phase).toBe(since);
      const from = lines.length;
      const waiting = longPoll(device, since ?? '');
      await logged('long-poll waiting', from);
      const decidedAt = Date.now();
      upstream.statuses.set(identificationId, 'APPROVED');
      const answer = await waiting;
      expect(answer.json.phase).toBe('approved');
      expect(Date.now() - decidedAt).toBeLessThan(PENDING_INTERVAL_MS + 2000);
    });
  }

  it('a long-poll that starts while the store is away answers once it is back, not 503', async () => {
    const { device, identificationId } = await pending('grace', 'IN_MANUAL_REVIEW', 'redis');
    upstream.statuses.set(identificationId, 'APPROVED');
    const { port } = redis;
    await redis.stop();
    const from = lines.length;
    const waiting = longPoll(device, 'in_manual_review');
    // Held while the store is away (today's answer was a 503 after the store's 2 s).
    const first = await Promise.race([waiting, logged('the store is away', from).then(() => 'held')]);
    expect(typeof first === 'string' ? first : `answered ${first.status}`).toBe('held');
    redis = await startRedisServer({ port, dataDir });
    const answer = await waiting;
    expect(answer.status).toBe(200);
    expect(answer.json.phase).toBe('approved');
  });
});

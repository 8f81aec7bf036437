import { rmSync } from 'node:fs';
import { generateWebhookSecret } from '@verify-kit/client';
import { startSandbox } from '@verify-kit/sandbox';
import { createSandboxControl } from '@verify-kit/sandbox/control';
import {
  Browser,
  CookieJar,
  findRedisServer,
  freePort,
  type RedisServer,
  startRedisServer,
} from '@verify-kit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo } from '../src/start-demo.js';
import { makeStandInPages } from './support/stand-in-demo.js';

/*
 * REDIS_URL switches the demo's sessions to connect-redis: a sign-in survives a restart of the
 * demo. Needs Debian's redis-server (CI installs it); skipped, saying so, where it is missing.
 */

function hasRedisServer(): boolean {
  try {
    findRedisServer();
    return true;
  } catch (error) {
    console.warn(`redis-sessions.test.ts: ${(error as Error).message}`);
    return false;
  }
}

const ADA = { name: 'Ada', email: 'ada@example.com' };
const sessionSecret = 'a-fixed-secret-for-this-test-only';

describe.skipIf(!hasRedisServer())('sessions in Redis (REDIS_URL)', () => {
  let redis: RedisServer;
  let publicDir: string;

  beforeAll(async () => {
    publicDir = makeStandInPages();
    redis = await startRedisServer();
  });

  afterAll(async () => {
    await redis?.stop();
    rmSync(publicDir, { recursive: true, force: true });
  });

  it('keeps a sign-in across a restart of the demo', async () => {
    const options = { port: 0, reviewDelayMs: 0, publicDir, redisUrl: redis.url, sessionSecret };
    const cookies = new CookieJar();
    const first = await startDemo(options);
    expect(first.sessionStore).toBe('redis');
    try {
      expect((await new Browser(first.url, cookies).post('/api/demo/sign-in', ADA)).status).toBe(200);
    } finally {
      await first.close();
    }

    const second = await startDemo(options);
    try {
      const me = await new Browser(second.url, cookies).get<{ user: unknown }>('/api/demo/me');
      expect(me.json.user).toEqual(ADA);
    } finally {
      await second.close();
    }
  });

  it('two demo instances on one Redis act as one site: started on A, seen and gated on B', async () => {
    const webhookSecret = generateWebhookSecret();
    const portA = await freePort();
    // The service delivers its webhooks to instance A only, as to one address of a load balancer.
    const sandbox = await startSandbox({
      reviewDelayMs: 0,
      webhookUrl: `http://127.0.0.1:${portA}/identity/webhook`,
      webhookSecret,
    });
    const upstream = { baseUrl: sandbox.url, apiKey: sandbox.apiKey, webhookSecret };
    const shared = { publicDir, redisUrl: redis.url, sessionSecret, upstream };
    const a = await startDemo({ port: portA, ...shared });
    const b = await startDemo({ port: 0, ...shared });
    const cookies = new CookieJar();
    const [onA, onB] = [new Browser(a.url, cookies), new Browser(b.url, cookies)];
    try {
      expect((await onA.post('/api/demo/sign-in', ADA)).status).toBe(200);
      const started = await onA.post<{ sessionCode: string }>('/identity/session');
      expect(started.status).toBe(201);
      expect((await onB.get<{ phase: string }>('/identity/status')).json.phase).toBe('awaiting_user');
      expect((await onB.get('/api/demo/account')).status).toBe(403);

      const control = createSandboxControl({ url: sandbox.url, apiKey: sandbox.apiKey });
      await control.submitByCode(started.json.sessionCode, 'approve');
      // Follow the status on B as the widget does: long-poll with the phase last seen.
      let phase = 'awaiting_user';
      for (let i = 0; i < 10 && phase !== 'approved'; i++) {
        phase = (await onB.get<{ phase: string }>(`/identity/status?wait=20&since=${phase}`)).json.phase;
      }
      expect(phase).toBe('approved');
      expect((await onB.get('/api/demo/account')).status).toBe(200);
      expect((await onA.get('/api/demo/account')).status).toBe(200);
    } finally {
      await b.close();
      await a.close();
      await sandbox.close();
    }
  });
});

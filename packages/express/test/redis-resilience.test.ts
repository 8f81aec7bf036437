import { capturingLogger, startRedisServer, until } from '@verify-kit/testkit';
import { RedisStore } from 'connect-redis';
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { createVerifyKit, type SessionResponseBody, type StatusResponseBody } from '../src/index.js';
import { createRedisStatusBus } from '../src/redis.js';
import { startApp } from './support/app.js';
import { useRedisAndSandbox } from './support/fixtures.js';
import { decide, submitDocument, waitForStatus } from './support/sandbox.js';

const API_KEY = 'sk_test_redis_resilience_51c0';
const env = useRedisAndSandbox(API_KEY);

describe('the Redis status bus across a Redis restart', () => {
  it('re-subscribes by itself: a hint published after the restart reaches the other instance; health tells the outage', async () => {
    const logger = capturingLogger();
    const x = createRedisStatusBus({ url: env.redis.url, channel: 'restart-test', logger });
    const y = createRedisStatusBus({ url: env.redis.url, channel: 'restart-test', logger });
    const kit = createVerifyKit({
      baseUrl: env.sandbox.url,
      apiKey: API_KEY,
      workflowId: 'default',
      statusBus: y,
      logger,
    });
    try {
      await Promise.all([x.ready(), y.ready()]);
      const seen: string[] = [];
      y.subscribe((identificationId) => seen.push(identificationId));
      expect(await kit.health()).toEqual({ ok: true, draining: false, bus: 'ok', store: 'ok' });

      await env.redis.stop();
      await until(() => !y.health(), 'the bus noticed the outage');
      expect(await kit.health()).toMatchObject({ ok: false, bus: 'down' });

      env.redis = await startRedisServer({ port: env.redis.port });
      await until(() => x.health() && y.health(), 'both reconnected');
      // Published until it arrives: the subscription is back without anybody renewing it.
      await until(async () => {
        await x.publish('after-restart', {});
        return seen.includes('after-restart');
      }, 'the hint crossed the restarted Redis');
      expect(await kit.health()).toEqual({ ok: true, draining: false, bus: 'ok', store: 'ok' });
    } finally {
      await kit.close();
      await x.close();
      await y.close();
    }
  });
});

describe('GET /status never writes the session (connect-redis)', () => {
  it('a sign-in made while a long-poll waits survives the long-poll’s end, even across the approval', async () => {
    const client = createClient({ url: env.redis.url });
    client.on('error', () => {});
    await client.connect();
    const app = await startApp(
      { baseUrl: env.sandbox.url, apiKey: API_KEY },
      { sessionStore: new RedisStore({ client, prefix: 'verify-kit-test:ro:' }) },
    );
    try {
      const person = app.browser();
      const started = await person.post<SessionResponseBody>('/identity/session');
      const poll = person.get<StatusResponseBody>('/identity/status?wait=5&since=awaiting_user');
      await new Promise((resolve) => setTimeout(resolve, 100));
      // Another tab signs in while the long-poll holds the session it loaded before.
      expect((await person.post('/login?user=ada')).status).toBe(200);
      const { identificationId } = await submitDocument(
        env.sandbox,
        started.json.sessionCode,
        'manual_review',
      );
      await waitForStatus(env.sandbox, identificationId, 'IN_MANUAL_REVIEW');
      await decide(env.sandbox, identificationId, 'APPROVED');
      const answered = await poll;
      expect(answered.status).toBe(200);
      expect(answered.headers['set-cookie']).toBeUndefined();
      expect((await person.get<{ user: string | null }>('/whoami')).json.user).toBe('ada');
      expect((await person.get('/api/data')).status).toBe(200);
      expect((await person.get<{ user: string | null }>('/whoami')).json.user).toBe('ada');
    } finally {
      await app.close();
      await client.close();
    }
  });
});

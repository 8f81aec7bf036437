// The Redis status bus on its own, against a real redis-server: delivery, hostile messages, outages.
import { randomUUID } from 'node:crypto';
import { generateWebhookSecret } from '@verify-kit/client';
import { capturingLogger, deliverWebhook, startRedisServer, until } from '@verify-kit/testkit';
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import type { StatusResponseBody } from '../src/index.js';
import { createRedisStatusBus } from '../src/redis.js';
import { useRedisAndSandbox } from './support/fixtures.js';
import { type RedisClient, startBusApp, WAIT_SECONDS, watchLongPolls } from './support/redis.js';
import { decide, submitDocument } from './support/sandbox.js';

const API_KEY = 'sk_test_bus_7a31c0';
const SECRET = generateWebhookSecret();

const env = useRedisAndSandbox(API_KEY);

describe('the Redis status bus delivering hints', () => {
  it('delivers to its own listeners once (no echo) and to every other instance; ignores malformed messages', async () => {
    const channel = `test:${randomUUID()}`;
    const x = createRedisStatusBus({ url: env.redis.url, channel });
    const y = createRedisStatusBus({ url: env.redis.url, channel });
    const raw: RedisClient = createClient({ url: env.redis.url });
    await raw.connect();
    try {
      await Promise.all([x.ready(), y.ready()]);
      const seenByX: unknown[] = [];
      const seenByY: unknown[] = [];
      x.subscribe((id, hint) => seenByX.push([id, hint]));
      y.subscribe((id, hint) => seenByY.push([id, hint]));

      await x.publish('idn-1', { type: 'identification.submitted', documentSubmitted: true });
      expect(seenByX).toEqual([['idn-1', { type: 'identification.submitted', documentSubmitted: true }]]);
      // Anyone with access to Redis can publish: garbage is dropped, odd hint fields are not passed on.
      for (const garbage of [
        'not json',
        '{"v":1}',
        'null',
        JSON.stringify({ v: 2, origin: 'o', identificationId: 'idn-2', hint: {} }),
        JSON.stringify({ v: 1, origin: 'o', identificationId: '', hint: {} }),
        JSON.stringify({ v: 1, origin: 'o', identificationId: 'i'.repeat(300), hint: {} }),
        JSON.stringify({ v: 1, origin: 'o', identificationId: 'idn-3', hint: null }),
        'x'.repeat(10_000),
      ]) {
        await raw.publish(channel, garbage);
      }
      await raw.publish(
        channel,
        JSON.stringify({
          v: 1,
          origin: 'o',
          identificationId: 'marker',
          hint: { type: 7, documentSubmitted: 'yes' },
        }),
      );
      await until(() => seenByX.length === 2 && seenByY.length === 2, 'the marker arrived');
      expect(seenByX).toEqual([
        ['idn-1', { type: 'identification.submitted', documentSubmitted: true }],
        ['marker', {}],
      ]);
      expect(seenByY).toEqual(seenByX);
    } finally {
      await x.close();
      await y.close();
      await raw.close();
    }
  });
});

describe('the Redis status bus’s connections and options', () => {
  it('close() closes the connections it opened, and only those', async () => {
    const admin: RedisClient = createClient({ url: env.redis.url });
    await admin.connect();
    const connections = async () =>
      String(await admin.sendCommand(['CLIENT', 'LIST']))
        .trim()
        .split('\n').length;
    try {
      const baseline = await connections();
      const owning = createRedisStatusBus({ url: env.redis.url });
      await owning.ready();
      await until(async () => (await connections()) === baseline + 2, 'publisher and subscriber connected');
      await owning.close();
      await owning.close(); // idempotent
      await until(async () => (await connections()) === baseline, 'both closed');

      const yours: RedisClient = createClient({ url: env.redis.url });
      await yours.connect();
      const borrowing = createRedisStatusBus({ client: yours });
      await borrowing.ready();
      expect(await connections()).toBe(baseline + 2);
      await borrowing.close();
      await until(async () => (await connections()) === baseline + 1, 'the subscriber closed');
      expect(yours.isReady).toBe(true);
      await yours.close();
    } finally {
      await admin.close();
    }
  });

  it('refuses wrong options with a clear message that never repeats a URL (it may hold a password)', () => {
    expect(() => createRedisStatusBus({} as never)).toThrow(/exactly one of client .* and url/);
    expect(() => createRedisStatusBus({ url: env.redis.url, client: {} as never })).toThrow(/exactly one/);
    expect(() => createRedisStatusBus({ client: {} as never })).toThrow(/node-redis v6 client/);
    expect(() => createRedisStatusBus({ url: env.redis.url, channel: '' })).toThrow(/channel/);
    let message = '';
    try {
      createRedisStatusBus({ url: 'http://admin:hunter2@redis.internal:6379' });
    } catch (error) {
      message = (error as Error).message;
      expect((error as { code?: string }).code).toBe('INVALID_OPTIONS');
    }
    expect(message).toMatch(/redis:\/\/ or rediss:\/\//);
    expect(message).not.toContain('hunter2');
  });
});

describe('the Redis status bus when Redis is down', () => {
  it('a Redis that is down costs push latency only: the gate stays closed, webhooks still wake this instance', async () => {
    const password = 'redis-pass-0f9e8d7c6b';
    const dead = await startRedisServer({ requirePass: password });
    await dead.stop();
    const lines: string[] = [];
    const { logger, nextWait } = watchLongPolls(capturingLogger(lines));
    const bus = createRedisStatusBus({ url: dead.url, logger });
    const lone = await startBusApp({
      baseUrl: env.sandbox.url,
      apiKey: API_KEY,
      webhookSecret: SECRET,
      bus,
      logger,
    });
    try {
      const person = lone.browser();
      const created = await person.post<{ sessionCode: string }>('/identity/session');
      expect(created.status).toBe(201);
      expect((await person.get('/api/data')).status).toBe(403);

      const waiting = nextWait();
      const poll = person.get<StatusResponseBody>(
        `/identity/status?wait=${WAIT_SECONDS}&since=awaiting_user`,
      );
      await waiting;
      const { identificationId } = await submitDocument(
        env.sandbox,
        created.json.sessionCode,
        'manual_review',
      );
      const id = `msg_${randomUUID()}`;
      const hook = () =>
        deliverWebhook(lone.browser(), {
          secret: SECRET,
          identificationId,
          id,
          type: 'identification.in_manual_review',
        });
      expect((await hook()).status).toBe(204);
      expect((await poll).json.phase).toBe('in_manual_review');
      // The shared replay memory is unreachable: this process's own memory still knows the replay.
      const accepted = () => lines.filter((line) => line.includes('webhook accepted')).length;
      const acceptedBefore = accepted();
      expect((await hook()).status).toBe(204);
      expect(accepted()).toBe(acceptedBefore);

      expect((await person.get('/api/data')).status).toBe(403);
      await decide(env.sandbox, identificationId, 'APPROVED');
      expect((await person.get('/api/data')).status).toBe(200);

      expect(lines.some((line) => line.startsWith('warn') && line.includes('redis'))).toBe(true);
      expect(lines.some((line) => line.includes('replayStore.claim failed'))).toBe(true);
      for (const line of lines) expect(line).not.toContain(password);
    } finally {
      await lone.close();
      await bus.close();
    }
  });
});

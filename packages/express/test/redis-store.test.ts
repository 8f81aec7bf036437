// One option for several instances (issue 31, part 4): instances configured with only
// `store: redisStore({ url })` (plus accountOf and webhookSecret) behave as one. Real HTTP from
// 127.0.0.1 (one address, as behind an office's NAT), one real redis-server, the fake upstream.
import { randomUUID } from 'node:crypto';
import { generateWebhookSecret } from '@verify-kit/client';
import { Browser, capturingLogger, deliverWebhook, until } from '@verify-kit/testkit';
import { describe, expect, it } from 'vitest';
import { type RedisKitStore, redisStore } from '../src/redis.js';
import { type AppOptions, signedInUser, startApp, type TestApp } from './support/app.js';
import { changeStatusOn, startVerificationOn, useRedisAndFakeUpstream } from './support/fixtures.js';
import { closeClient, connectedClient } from './support/redis.js';

const API_KEY = 'sk_test_redis_store_4c2e9b';
const SECRET = generateWebhookSecret();
const SHARED_IN_PART = 'shared between instances';

const env = useRedisAndFakeUpstream(API_KEY);
let run = 0;

/** One server process: its kit given one store and nothing else shared; its own log lines. */
interface Instance {
  app: TestApp;
  store: RedisKitStore;
  lines: string[];
}

/**
 * `count` instances on one Redis, each with `store: redisStore({ url })` (keys apart from the other
 * tests' under their own prefix), accountOf and webhookSecret; `options` added to each.
 */
async function instances(count: number, options: AppOptions = {}): Promise<Instance[]> {
  const prefix = `verify-kit-test:store-${++run}:`;
  const started: Instance[] = [];
  for (let i = 0; i < count; i++) {
    const lines: string[] = [];
    const store = redisStore({ url: env.redis.url }, { prefix });
    await store.ready(); // optional: a webhook heard before it reaches this instance only
    const app = await startApp({
      baseUrl: env.upstream.url,
      apiKey: API_KEY,
      accountOf: signedInUser,
      webhookSecret: SECRET,
      store,
      logger: capturingLogger(lines),
      ...options,
    });
    started.push({ app, store, lines });
  }
  return started;
}

const closeAll = async (started: Instance[]) => {
  for (const { app } of started) await app.close();
};

/** POST /session from a new visitor (no cookie) on `instance`: its status. */
const newVisitor = async ({ app }: Instance) => (await app.browser().post('/identity/session')).status;

const warningsOf = (started: Instance[]) =>
  started.flatMap(({ lines }) => lines.filter((line) => line.includes(SHARED_IN_PART)));

describe('store: redisStore({ url }) alone shares everything', () => {
  it('one address rotating cookies gets 60 creations a minute across three instances, not 60 each', async () => {
    const three = await instances(3);
    try {
      const created = env.upstream.created.length;
      const statuses = [];
      for (let i = 0; i < 90; i++) statuses.push(await newVisitor(three[i % 3]!));
      expect(env.upstream.created.length - created).toBe(60);
      expect(statuses.filter((status) => status === 429)).toHaveLength(30);
      for (const instance of three) expect(await newVisitor(instance)).toBe(429);
    } finally {
      await closeAll(three);
    }
  });

  it('a webhook received by one instance refuses the account’s next gated request on another', async () => {
    const [a, b] = await instances(2);
    try {
      const onA = await a!.app.signedIn('ada');
      const id = await startVerificationOn(env.upstream, onA);
      env.upstream.statuses.set(id, 'APPROVED');
      // The same account on another device, balanced to B: the binding is in the store; a visit begins.
      const onB = await b!.app.signedIn('ada');
      expect((await onB.get('/api/data')).status).toBe(200);
      expect((await onB.get('/api/data')).status).toBe(200);
      // The service rejects; its signed webhook reaches A only.
      await changeStatusOn(env.upstream, a!.app, {
        secret: SECRET,
        identificationId: id,
        status: 'REJECTED',
      });
      await until(async () => (await onB.get('/api/data')).status === 403, 'B refuses after A’s webhook');
      expect((await onA.get('/api/data')).status).toBe(403);
    } finally {
      await closeAll([a!, b!]);
    }
  });

  it('a webhook-id accepted by one instance is acknowledged and ignored by the other', async () => {
    const [a, b] = await instances(2);
    try {
      const accepted = () =>
        [a!, b!].flatMap(({ lines }) => lines.filter((line) => line.startsWith('debug webhook accepted')))
          .length;
      const id = `msg_${randomUUID()}`;
      const delivery = { secret: SECRET, identificationId: randomUUID(), id };
      expect((await deliverWebhook(new Browser(a!.app.url), delivery)).status).toBe(204);
      expect(accepted()).toBe(1);
      expect((await deliverWebhook(new Browser(b!.app.url), delivery)).status).toBe(204);
      expect(accepted()).toBe(1);
      expect(b!.lines.some((line) => line.includes('a delivery already accepted'))).toBe(true);
    } finally {
      await closeAll([a!, b!]);
    }
  });

  it('says nothing of state kept per process, even with send-link, and health reports the store', async () => {
    const [a, b] = await instances(2, {
      sendLink: { channels: ['email'], contactOf: () => ({ email: 'ada@example.com' }) },
    });
    try {
      expect(warningsOf([a!, b!])).toEqual([]);
      expect(await a!.app.kit.health()).toEqual({ ok: true, draining: false, bus: 'ok', store: 'ok' });
    } finally {
      await closeAll([a!, b!]);
    }
  });

  it('a kit given store and sessionLimit: false keeps its own choice; the rest is still shared', async () => {
    const [a, b] = await instances(2, { sessionLimit: false });
    try {
      const created = env.upstream.created.length;
      const statuses = [];
      for (let i = 0; i < 70; i++) statuses.push(await newVisitor(i % 2 === 0 ? a! : b!));
      expect(statuses).toEqual(Array(70).fill(201));
      expect(env.upstream.created.length - created).toBe(70);
      // The account's verification started on A is the one B answers for.
      const onA = await a!.app.signedIn('grace');
      await startVerificationOn(env.upstream, onA);
      const onB = await b!.app.signedIn('grace');
      expect((await onB.get('/identity/status')).status).toBe(200);
      expect(warningsOf([a!, b!])).toEqual([]);
      expect((await b!.app.kit.health()).bus).toBe('ok');
    } finally {
      await closeAll([a!, b!]);
    }
  });
});

describe('what kit.close() closes', () => {
  it('a url store is the kit’s: closed with the kit', async () => {
    const [instance] = await instances(1);
    const connection = instance!.store.counts.redis;
    expect(connection.isReady).toBe(true);
    await instance!.app.close();
    expect(connection.isReady).toBe(false);
    expect(instance!.store.statusBus.health()).toBe(false);
  });

  it('a client you give the store stays yours: open after the kit closed, its subscriber closed', async () => {
    const client = await connectedClient(env.redis.url);
    try {
      const store = redisStore({ client });
      await store.ready();
      const app = await startApp({ baseUrl: env.upstream.url, apiKey: API_KEY, store });
      expect((await app.kit.health()).bus).toBe('ok');
      await app.close();
      expect(client.isReady).toBe(true);
      expect(await client.ping()).toBe('PONG');
      expect(store.statusBus.health()).toBe(false);
    } finally {
      await closeClient(client);
    }
  });
});

import { randomUUID } from 'node:crypto';
import { generateWebhookSecret } from '@verify-kit/client';
import type { Sandbox } from '@verify-kit/sandbox';
import {
  Browser,
  CookieJar,
  capturingLogger,
  deliverWebhook,
  expectKeyNeverLeaked,
  type Listening,
  listen,
  logLines,
  type RedisServer,
  startRedisServer,
} from '@verify-kit/testkit';
import { RedisStore } from 'connect-redis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger, StatusResponseBody } from '../src/index.js';
import { createRedisStatusBus, type RedisStatusBus } from '../src/redis.js';
import type { TestApp } from './support/app.js';
import { approveInSandbox, startWebhookingSandbox } from './support/fixtures.js';
import { type RedisClient, startBusApp, WAIT_SECONDS, watchLongPolls } from './support/redis.js';
import { submitDocument, waitForStatus } from './support/sandbox.js';

const API_KEY = 'sk_test_multi_5e1f0a77c3';
const SECRET = generateWebhookSecret();

type ErrorJson = { error: { code: string } };

/** One server process: its own Redis connection, session store, bus, kit and HTTP server. */
interface Instance {
  name: string;
  app: TestApp;
  bus: RedisStatusBus;
  /** Resolves at the next long-poll this instance starts waiting. */
  nextWait(): Promise<void>;
  /** Log lines of this instance only. */
  lines: string[];
  close(): Promise<void>;
}

let redis: RedisServer;
let sandbox: Sandbox;
let aListening: Listening;
let a: Instance;
let b: Instance;
/** What happened, in order, across instances (for ordering assertions). */
const events: string[] = [];
/** The identification of each webhook an instance accepted (a test counts its own deliveries only). */
const acceptedFor: string[] = [];

/** Logs to the instance's own lines and, but for info, to the run's (checked for the key at the end). */
function instanceLogger(name: string, lines: string[]): Logger {
  const capture = capturingLogger(lines);
  const shared = capturingLogger(logLines);
  return {
    debug(message, meta) {
      capture.debug?.(message, meta);
      shared.debug?.(message, meta);
      if (message === 'webhook accepted') {
        const identificationId = String(
          (meta as { identificationId?: unknown } | undefined)?.identificationId,
        );
        events.push(`${name}: webhook accepted for ${identificationId}`);
        acceptedFor.push(identificationId);
      }
    },
    info: (message, meta) => capture.info?.(message, meta),
    warn: (message, meta) => {
      capture.warn?.(message, meta);
      shared.warn?.(message, meta);
    },
    error: (message, meta) => {
      capture.error?.(message, meta);
      shared.error?.(message, meta);
    },
  };
}

async function startInstance(name: string, listening?: Listening): Promise<Instance> {
  const client: RedisClient = createClient({ url: redis.url });
  client.on('error', () => {});
  await client.connect();
  const lines: string[] = [];
  const { logger, nextWait } = watchLongPolls(instanceLogger(name, lines));
  const bus = createRedisStatusBus({ client, logger });
  await bus.ready();
  const app = await startBusApp(
    { baseUrl: sandbox.url, apiKey: API_KEY, webhookSecret: SECRET, bus, logger },
    {
      sessionStore: new RedisStore({ client, prefix: 'verify-kit-test:sess:' }),
      ...(listening === undefined ? {} : { listening }),
    },
  );
  return {
    name,
    app,
    bus,
    lines,
    nextWait,
    async close() {
      await app.close();
      await bus.close();
      await client.close();
    },
  };
}

/** One person (one cookie jar) whose requests the load balancer sends to either instance. */
class Person {
  readonly cookies = new CookieJar();
  via(instance: Instance): Browser {
    return new Browser(instance.app.url, this.cookies);
  }
}

beforeAll(async () => {
  redis = await startRedisServer();
  // A's address must be known before the sandbox starts: the sandbox's webhooks go to A only.
  ({ sandbox, listening: aListening } = await startWebhookingSandbox(API_KEY, SECRET));
  a = await startInstance('A', aListening);
  b = await startInstance('B');
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  await sandbox?.close();
  await redis?.stop();
  expectKeyNeverLeaked(API_KEY);
});

describe('sessions shared through connect-redis', () => {
  it('a verification started through A is seen by the gate on B', async () => {
    const person = new Person();
    const created = await person.via(a).post<{ sessionCode: string; expiresAt: string }>('/identity/session');
    expect(created.status).toBe(201);

    const status = await person.via(b).get<StatusResponseBody>('/identity/status');
    expect(status.status).toBe(200);
    expect(status.json).toMatchObject({ phase: 'awaiting_user', expiresAt: created.json.expiresAt });
    const refused = await person.via(b).get<ErrorJson & { phase: string }>('/api/data');
    expect([refused.status, refused.json.error.code, refused.json.phase]).toEqual([
      403,
      'NOT_APPROVED',
      'awaiting_user',
    ]);

    await approveInSandbox(sandbox, created.json.sessionCode);
    const cookieBeforeApproval = [...person.cookies].join();
    expect((await person.via(b).get('/api/data')).status).toBe(200);
    // B regenerated the session id on the first approval; A reads the same session from Redis.
    expect([...person.cookies].join()).not.toBe(cookieBeforeApproval);
    expect((await person.via(a).get('/api/data')).status).toBe(200);
    expect((await person.via(a).get<StatusResponseBody>('/identity/status')).json.phase).toBe('approved');
  });

  it('two users on two instances never see each other’s status', async () => {
    const alice = new Person();
    const bob = new Person();
    const aliceSession = await alice.via(a).post<{ sessionCode: string }>('/identity/session');
    await bob.via(b).post('/identity/session');
    await approveInSandbox(sandbox, aliceSession.json.sessionCode);
    for (const instance of [a, b]) {
      expect((await alice.via(instance).get('/api/data')).status).toBe(200);
      expect((await bob.via(instance).get('/api/data')).status).toBe(403);
      expect((await bob.via(instance).get<StatusResponseBody>('/identity/status')).json.phase).toBe(
        'awaiting_user',
      );
    }
  });
});

describe('hints and webhook ids shared through the Redis status bus', () => {
  it('a webhook received by A wakes a long-poll waiting on B at once', async () => {
    const person = new Person();
    // From the creation on: the sandbox's creation webhooks reach A too, and their hints may reach B
    // after the long-poll began and wake it (B then reads the submitted status).
    const before = events.length;
    const created = await person.via(b).post<{ sessionCode: string }>('/identity/session');
    expect(created.status).toBe(201);

    const waiting = b.nextWait();
    const poll = person
      .via(b)
      .get<StatusResponseBody>(`/identity/status?wait=${WAIT_SECONDS}&since=awaiting_user`)
      .then((res) => {
        events.push('B: long-poll answered');
        return res;
      });
    await waiting;
    const { identificationId } = await submitDocument(sandbox, created.json.sessionCode, 'manual_review');

    const answer = await poll;
    // B polls the upstream every 10 s and the wait is 8 s: only A's webhook, pushed through Redis,
    // can have told B before the wait ended.
    expect(answer.status).toBe(200);
    // Woken by a hint of one of the sandbox's webhooks to A (a creation's, submitted, in manual
    // review): either way past awaiting_user, which B alone would still answer at the deadline.
    expect(['in_review', 'in_manual_review']).toContain(answer.json.phase);
    const after = events.slice(before);
    const accepted = `A: webhook accepted for ${identificationId}`;
    expect(after).toContain(accepted);
    expect(after.indexOf(accepted)).toBeLessThan(after.indexOf('B: long-poll answered'));
    expect(b.lines.some((line) => line.includes('webhook accepted'))).toBe(false);
  });

  it('a webhook-id accepted by one instance is acknowledged but not acted on by the other (shared replayStore)', async () => {
    // Its own identification: an earlier test's deliveries may still be landing.
    const identificationId = `replay-${randomUUID()}`;
    const accepted = () => acceptedFor.filter((id) => id === identificationId).length;
    const before = accepted();
    const id = `msg_${randomUUID()}`;
    const first = await deliverWebhook(new Browser(a.app.url), { secret: SECRET, identificationId, id });
    expect(first.status).toBe(204);
    const replay = await deliverWebhook(new Browser(b.app.url), { secret: SECRET, identificationId, id });
    expect(replay.status).toBe(204);
    expect(accepted() - before).toBe(1);

    // Two copies of one delivery reaching both instances at the same moment: exactly one is acted on.
    const twin = `msg_${randomUUID()}`;
    const both = await Promise.all(
      [a, b].map((instance) =>
        deliverWebhook(new Browser(instance.app.url), { secret: SECRET, identificationId, id: twin }),
      ),
    );
    expect(both.map((res) => res.status)).toEqual([204, 204]);
    expect(accepted() - before).toBe(2);
  });
});

describe('an instance restarting', () => {
  it('instance A restarting loses nothing: sessions, replay memory, webhooks to B', async () => {
    const person = new Person();
    const created = await person.via(a).post<{ sessionCode: string }>('/identity/session');
    expect(created.status).toBe(201);
    const delivered = `msg_${randomUUID()}`;
    expect(
      (await deliverWebhook(new Browser(a.app.url), { secret: SECRET, identificationId: 'x', id: delivered }))
        .status,
    ).toBe(204);

    // The process ends: its memory (caches, replay ids, timers) goes with it; a new one starts
    // on the same address, where the load balancer and the sandbox's webhooks point.
    await a.close();
    a = await startInstance('A', await listen(undefined, aListening.port));

    expect((await person.via(a).get<StatusResponseBody>('/identity/status')).json.phase).toBe(
      'awaiting_user',
    );
    const replay = await deliverWebhook(new Browser(a.app.url), {
      secret: SECRET,
      identificationId: 'x',
      id: delivered,
    });
    expect(replay.status).toBe(204);
    expect(a.lines.filter((line) => line.includes('webhook accepted'))).toHaveLength(0);

    const waiting = b.nextWait();
    const poll = person
      .via(b)
      .get<StatusResponseBody>(`/identity/status?wait=${WAIT_SECONDS}&since=awaiting_user`);
    await waiting;
    const { identificationId } = await submitDocument(sandbox, created.json.sessionCode, 'approve');
    expect((await poll).json.phase).not.toBe('awaiting_user');
    await waitForStatus(sandbox, identificationId, 'APPROVED');
    expect((await person.via(a).get('/api/data')).status).toBe(200);
    expect((await person.via(b).get('/api/data')).status).toBe(200);
  });
});

// Creation limits shared by every instance through Redis (issue 23): two instances of the app on one
// real redis-server, one fake upstream counting the sessions created, every request over real HTTP
// from 127.0.0.1 (one address, as behind an office's NAT).
import { Browser, CookieJar, capturingLogger, startRedisServer, until } from '@verify-kit/testkit';
import { RedisStore } from 'connect-redis';
import { describe, expect, it } from 'vitest';
import type { SessionLimit } from '../src/index.js';
import { signedInUser, startApp, type TestApp } from './support/app.js';
import { useRedisAndFakeUpstream } from './support/fixtures.js';
import { closeClient, connectedClient, type RedisClient } from './support/redis.js';

const API_KEY = 'sk_test_shared_limits_7d3a91';

const env = useRedisAndFakeUpstream(API_KEY);
let run = 0;

interface Instance {
  app: TestApp;
  client: RedisClient;
  lines: string[];
  close(): Promise<void>;
}

/**
 * One server process: its own Redis connection, its kit counting creations in Redis under `prefix`,
 * sessions in Redis too when `sharedSessions` (a browser's cookie works on every instance).
 */
async function startInstance(
  limit: Omit<SessionLimit, 'redis'>,
  options: { sharedSessions?: boolean; accounts?: boolean } = {},
): Promise<Instance> {
  const client = await connectedClient(env.redis.url);
  const lines: string[] = [];
  const app = await startApp(
    {
      baseUrl: env.upstream.url,
      apiKey: API_KEY,
      logger: capturingLogger(lines),
      sessionLimit: { ...limit, redis: client },
      ...(options.accounts ? { accountOf: signedInUser } : {}),
    },
    options.sharedSessions
      ? { sessionStore: new RedisStore({ client, prefix: `${limit.prefix}sess:` }) }
      : {},
  );
  return {
    app,
    client,
    lines,
    async close() {
      await app.close();
      await closeClient(client);
    },
  };
}

/** Two instances on one Redis, their limit keys apart from other tests' (`prefix`). */
async function twoInstances(limit: Omit<SessionLimit, 'redis' | 'prefix'> = {}, options = {}) {
  const prefix = `verify-kit-test:limits-${++run}:`;
  return [
    await startInstance({ ...limit, prefix }, options),
    await startInstance({ ...limit, prefix }, options),
  ];
}

/** POST /session from a new visitor (no cookie) on `instance`: its status. */
const newVisitor = async (instance: Instance) =>
  (await instance.app.browser().post('/identity/session')).status;

describe('creation limits shared through Redis', () => {
  it('the sixth creation in a minute of one browser is refused whichever instance gets it', async () => {
    const [a, b] = await twoInstances({}, { sharedSessions: true });
    try {
      const jar = new CookieJar();
      const via = (instance: Instance) => new Browser(instance.app.url, jar);
      const created = env.upstream.created.length;
      for (let i = 0; i < 5; i++) {
        const res = await via(i % 2 === 0 ? a! : b!).post('/identity/session', { restart: true });
        expect(res.status).toBe(201);
      }
      for (const instance of [a!, b!]) {
        const res = await via(instance).post<{ error: { code: string } }>('/identity/session', {
          restart: true,
        });
        expect([res.status, res.json.error.code]).toEqual([429, 'TOO_MANY_SESSIONS']);
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
      expect(env.upstream.created.length - created).toBe(5);
    } finally {
      await a?.close();
      await b?.close();
    }
  });

  it('one address rotating cookies gets 60 new sessions a minute for the whole deployment (defaults)', async () => {
    const [a, b] = await twoInstances();
    try {
      const created = env.upstream.created.length;
      const statuses = [];
      for (let i = 0; i < 90; i++) statuses.push(await newVisitor(i % 2 === 0 ? a! : b!));
      expect(env.upstream.created.length - created).toBe(60);
      expect(statuses.filter((status) => status === 429)).toHaveLength(30);
      // Refused on both instances, not only on the one that counted more.
      expect(await newVisitor(a!)).toBe(429);
      expect(await newVisitor(b!)).toBe(429);
    } finally {
      await a?.close();
      await b?.close();
    }
  });

  it('50 people behind one address, each signed in to their own account, are all served on either instance: no 429 (defaults)', async () => {
    const [a, b] = await twoInstances({}, { accounts: true });
    try {
      const created = env.upstream.created.length;
      const people = await Promise.all(
        Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? a! : b!).app.signedIn(`person-${run}-${i}`)),
      );
      const started = await Promise.all(people.map((person) => person.post('/identity/session')));
      // A reload asks again and gets the same verification: not a new session, not counted.
      const reloaded = await Promise.all(people.map((person) => person.post('/identity/session')));
      expect([...started, ...reloaded].map((res) => res.status)).toEqual(Array(100).fill(201));
      expect(env.upstream.created.length - created).toBe(50);
    } finally {
      await a?.close();
      await b?.close();
    }
  });

  it('the counts survive an instance restart', async () => {
    const [a, b] = await twoInstances({ perIp: 3 });
    try {
      for (let i = 0; i < 3; i++) expect(await newVisitor(a!)).toBe(201);
      await a!.close();
      const restarted = await startInstance({ perIp: 3, prefix: `verify-kit-test:limits-${run}:` });
      try {
        expect(await newVisitor(restarted)).toBe(429);
        expect(await newVisitor(b!)).toBe(429);
      } finally {
        await restarted.close();
      }
    } finally {
      await b?.close();
    }
  });

  it('Redis that stops answering (a script holds it): counted in memory after 2 s, still bounded, never a 5xx', async () => {
    const [a, b] = await twoInstances({ perIp: 2 });
    const admin = await connectedClient(env.redis.url);
    const killer = await connectedClient(env.redis.url);
    try {
      // A script that never ends: Redis answers nobody (then only BUSY) until SCRIPT KILL.
      const held = admin.sendCommand(['EVAL', 'while true do end', '0']).catch(() => undefined);
      const created = env.upstream.created.length;
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push(await newVisitor(a!));
      expect(statuses).toEqual([201, 201, 429, 429]);
      expect(env.upstream.created.length - created).toBe(2);
      await killer.sendCommand(['SCRIPT', 'KILL']);
      await held;
    } finally {
      await closeClient(admin);
      await closeClient(killer);
      await a?.close();
      await b?.close();
    }
  });

  // Last: it stops the shared redis-server (and starts it again on the same port).
  it('Redis stopped: each instance counts in its own memory, bounded at perIp each, never a 5xx, and says so', async () => {
    const [a, b] = await twoInstances({ perIp: 3 });
    try {
      expect(await newVisitor(a!)).toBe(201);
      await env.redis.stop();
      await until(() => !a!.client.isReady && !b!.client.isReady, 'both instances saw Redis go');
      for (const instance of [a!, b!]) {
        const created = env.upstream.created.length;
        const statuses = [];
        for (let i = 0; i < 10; i++) statuses.push(await newVisitor(instance));
        expect(statuses.every((status) => status === 201 || status === 429)).toBe(true);
        expect(env.upstream.created.length - created).toBeLessThanOrEqual(3);
        expect(statuses.slice(3)).toEqual(Array(7).fill(429));
        expect(instance.lines.some((line) => line.includes('redis is not connected'))).toBe(true);
      }
    } finally {
      env.redis = await startRedisServer({ port: env.redis.port });
      await a?.close();
      await b?.close();
    }
  });
});

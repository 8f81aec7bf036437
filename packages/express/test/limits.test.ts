// The kit's own limits against amplification and floods (issue "close the holes"), performed over
// real HTTP and real sockets as an attacker would.
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { generateWebhookSecret } from '@verify-kit/client';
import { capturingLogger, expectKeyNeverLeaked, listen, until } from '@verify-kit/testkit';
import session from 'express-session';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createVerifyKit,
  type ErrorResponseBody,
  type SessionResponseBody,
  type StatusResponseBody,
} from '../src/index.js';
import { signedInUser, withFakeUpstreamApp } from './support/app.js';
import { changeStatusOn } from './support/fixtures.js';
import { watchLongPolls } from './support/redis.js';

const API_KEY = 'sk_test_limits_8e21';
afterAll(() => expectKeyNeverLeaked(API_KEY));

describe('creation limits', () => {
  it('60 restarts in a loop from one browser: 5 upstream sessions, then 429 TOO_MANY_SESSIONS with Retry-After', async () => {
    await withFakeUpstreamApp({ apiKey: API_KEY }, async (app, upstream) => {
      const attacker = app.browser();
      const answers = [];
      for (let i = 0; i < 60; i++)
        answers.push(await attacker.post<ErrorResponseBody>('/identity/session', { restart: true }));
      expect(upstream.created).toHaveLength(5);
      const refused = answers.filter((res) => res.status === 429);
      expect(refused).toHaveLength(55);
      expect(refused[0]!.json.error.code).toBe('TOO_MANY_SESSIONS');
      expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused[0]!.headers['retry-after'])).toBeLessThanOrEqual(60);
      // Dropping the cookies does not reset it: the address is counted too (60 a minute).
      for (let i = 0; i < 70; i++) await app.browser().post('/identity/session');
      expect(upstream.created).toHaveLength(60);
    });
  });

  it('a client that resets the connection right after sending POST /session is counted under its address and creates nothing', async () => {
    const listening = await listen();
    // The kit's answer to each request, written or not (the socket may be gone): a creation that got
    // through reached the upstream before its 201 was written.
    let answered = 0;
    listening.server.on('request', (_req, res: ServerResponse) => {
      const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
      res.end = ((...args: unknown[]) => {
        answered++;
        return end(...args);
      }) as ServerResponse['end'];
    });
    const limit = { perClient: 100, perIp: 3, windowSeconds: 60 };
    await withFakeUpstreamApp(
      { apiKey: API_KEY, sessionLimit: limit },
      async (app, upstream) => {
        for (let i = 0; i < 3; i++) expect((await app.browser().post('/identity/session')).status).toBe(201);
        expect((await app.browser().post('/identity/session')).status).toBe(429);
        for (let i = 0; i < 40; i++) await postAndReset(listening.port);
        await until(() => answered === 44, 'the kit answered the 40 reset requests');
        expect(upstream.created).toHaveLength(3);
        expect((await app.browser().post('/identity/session')).status).toBe(429);
      },
      { listening },
    );
  });

  it('an IPv6 client rotating addresses inside its /64 counts as one address; another /64 is another', async () => {
    await withFakeUpstreamApp(
      { apiKey: API_KEY, sessionLimit: { perClient: 100, perIp: 3, windowSeconds: 60 } },
      async (app, upstream) => {
        // Behind a proxy (trust proxy): the address is X-Forwarded-For's.
        const from = async (address: string) =>
          (await app.browser().post('/identity/session', {}, { 'x-forwarded-for': address })).status;
        const rotating = [];
        for (let i = 1; i <= 10; i++) rotating.push(await from(`2001:db8:5:6::${i.toString(16)}`));
        expect(rotating).toEqual([201, 201, 201, ...Array(7).fill(429)]);
        expect(await from('2001:db8:5:6:ffff:ffff:ffff:ffff')).toBe(429);
        expect(await from('2001:db8:5:7::1')).toBe(201);
        expect(upstream.created).toHaveLength(4);
      },
      { routes: (express) => express.set('trust proxy', 'loopback') },
    );
  });

  it('a refusal touches no session: 300 refusals set no cookie and the session store does not grow', async () => {
    const store = new session.MemoryStore();
    const sessionsInStore = () =>
      new Promise<number>((resolve, reject) =>
        store.length((error, n) => (error ? reject(error) : resolve(n ?? 0))),
      );
    await withFakeUpstreamApp(
      { apiKey: API_KEY, sessionLimit: { perClient: 1, perIp: 2, windowSeconds: 60 } },
      async (app, upstream) => {
        const person = app.browser();
        expect((await person.post('/identity/session')).status).toBe(201);
        expect((await app.browser().post('/identity/session')).status).toBe(201);
        const stored = await sessionsInStore();
        const refused = [];
        // New visitors beyond the address's limit, and a known browser beyond its own.
        for (let i = 0; i < 250; i++) refused.push(await app.browser().post('/identity/session'));
        for (let i = 0; i < 50; i++) refused.push(await person.post('/identity/session', { restart: true }));
        expect(refused.map((res) => res.status)).toEqual(Array(300).fill(429));
        expect(refused.filter((res) => res.headers['set-cookie'] !== undefined)).toHaveLength(0);
        expect(await sessionsInStore()).toBe(stored);
        expect(upstream.created).toHaveLength(2);
      },
      { sessionStore: store },
    );
  });

  it('50 people behind one address (an office, a class), each signed in, are all served: no 429', async () => {
    await withFakeUpstreamApp({ apiKey: API_KEY, accountOf: signedInUser }, async (app, upstream) => {
      const people = await Promise.all(Array.from({ length: 50 }, (_, i) => app.signedIn(`pupil-${i}`)));
      const started = await Promise.all(people.map((person) => person.post('/identity/session')));
      // Each reloads the page: the widget asks again and gets the same verification.
      const reloaded = await Promise.all(people.map((person) => person.post('/identity/session')));
      expect([...started, ...reloaded].map((res) => res.status)).toEqual(Array(100).fill(201));
      expect(upstream.created).toHaveLength(50);
    });
  });
});

/** POST /session over a raw socket that is reset (TCP RST) as soon as the request is written. */
async function postAndReset(port: number): Promise<void> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  await once(socket, 'connect');
  const body = '{"restart":true}';
  const request =
    `POST /identity/session HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${body.length}\r\n\r\n${body}`;
  const closed = once(socket, 'close');
  socket.write(request, () => socket.resetAndDestroy());
  await closed;
}

describe('creation limits, configured', () => {
  it('sessionLimit: false leaves creation to the app’s own limits', async () => {
    await withFakeUpstreamApp({ apiKey: API_KEY, sessionLimit: false }, async (app, _upstream) => {
      const browser = app.browser();
      for (let i = 0; i < 8; i++)
        expect((await browser.post('/identity/session', { restart: true })).status).toBe(201);
    });
  });
});

describe('upstream reads per identification', () => {
  it('200 gated requests of one person in one visit cost one upstream read, and a webhook still ends the grant at once', async () => {
    const secret = generateWebhookSecret();
    await withFakeUpstreamApp({ apiKey: API_KEY, webhookSecret: secret }, async (app, upstream) => {
      const person = app.browser();
      await person.post('/identity/session');
      const identificationId = upstream.lastIdentificationId();
      upstream.statuses.set(identificationId, 'APPROVED');
      upstream.reads = 0;
      // The visit's first request reads the service; the other 199 are answered from its stored decision.
      for (let i = 0; i < 200; i++) expect((await person.get('/api/data')).status).toBe(200);
      expect(upstream.reads).toBe(1);

      // Revoked upstream, and the webhook says so: the very next request is refused.
      await changeStatusOn(upstream, app, { secret, identificationId, status: 'REJECTED' });
      expect((await person.get('/api/data')).status).toBe(403);
    });
  });
});

describe('long-polls', () => {
  it('maxLongPolls caps the open long-polls of the process: beyond, 429 TOO_MANY_LONG_POLLS with Retry-After', async () => {
    const longPolls = watchLongPolls(capturingLogger());
    const options = { apiKey: API_KEY, maxLongPolls: 2, logger: longPolls.logger };
    await withFakeUpstreamApp(options, async (app, _upstream) => {
      const people = [app.browser(), app.browser(), app.browser()];
      for (const person of people) await person.post('/identity/session');
      const held = people
        .slice(0, 2)
        .map((person) => person.get('/identity/status?wait=2&since=awaiting_user'));
      await until(() => longPolls.waits() === 2, 'the two long-polls hold their slots');
      const third = await people[2]!.get<ErrorResponseBody>('/identity/status?wait=2&since=awaiting_user');
      expect([third.status, third.json.error.code, third.headers['retry-after']]).toEqual([
        429,
        'TOO_MANY_LONG_POLLS',
        '2',
      ]);
      expect((await Promise.all(held)).map((res) => res.status)).toEqual([200, 200]);
      // Slots come back when the long-polls end.
      expect((await people[2]!.get('/identity/status?wait=1&since=awaiting_user')).status).toBe(200);
    });
  });

  it('a wait above maxWaitSeconds is held no longer than maxWaitSeconds', async () => {
    await withFakeUpstreamApp({ apiKey: API_KEY, maxWaitSeconds: 1 }, async (app, _upstream) => {
      const person = app.browser();
      await person.post('/identity/session');
      // Held 30 s, this would outlive the test's own time limit.
      const res = await person.get<StatusResponseBody>('/identity/status?wait=30&since=awaiting_user');
      expect(res.json.phase).toBe('awaiting_user');
    });
  });

  it('longPoll: false answers at once and tells the widget when to ask again (serverless)', async () => {
    await withFakeUpstreamApp(
      { apiKey: API_KEY, longPoll: false, pollIntervalMs: 3000 },
      async (app, upstream) => {
        const person = app.browser();
        const created = await person.post<SessionResponseBody>('/identity/session');
        expect(created.json.pollAfterMs).toBe(3000);
        upstream.reads = 0;
        const res = await person.get<StatusResponseBody>('/identity/status?wait=25&since=awaiting_user');
        expect(res.json).toMatchObject({ phase: 'awaiting_user', pollAfterMs: 3000 });
        expect(upstream.reads).toBe(1);
      },
    );
  });
});

describe('bodies', () => {
  it('a streamed body over the limit: 413 PAYLOAD_TOO_LARGE, Connection: close, and the socket is closed while the client still sends', async () => {
    await withFakeUpstreamApp({ apiKey: API_KEY }, async (app, upstream) => {
      const { hostname, port } = new URL(app.url);
      const socket = connect(Number(port), hostname);
      await new Promise((resolve) => socket.once('connect', resolve));
      let answer = '';
      socket.on('data', (chunk) => {
        answer += chunk.toString('latin1');
      });
      const closed = new Promise((resolve) => socket.once('close', resolve));
      socket.on('error', () => {});
      socket.write(
        `POST /identity/session HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
      );
      const chunk = `${(64 * 1024).toString(16)}\r\n${' '.repeat(64 * 1024)}\r\n`;
      let sent = 0;
      // Up to 300 MB, as the attack did; the server must stop it long before.
      while (!socket.destroyed && sent < 300 * 1024 * 1024 && !answer.includes('\r\n\r\n')) {
        if (!socket.write(chunk)) await new Promise((resolve) => setTimeout(resolve, 5));
        sent += 64 * 1024;
      }
      await closed;
      expect(answer).toMatch(/^HTTP\/1\.1 413/);
      expect(answer.toLowerCase()).toContain('connection: close');
      expect(answer).toContain('PAYLOAD_TOO_LARGE');
      expect(sent).toBeLessThan(300 * 1024 * 1024);
      expect(upstream.created).toHaveLength(0);
    });
  });
});

describe('allowInsecureHttp', () => {
  const create =
    (baseUrl: string, extra = {}) =>
    () =>
      createVerifyKit({
        baseUrl,
        apiKey: API_KEY,
        workflowId: 'default',
        logger: capturingLogger(),
        ...extra,
      }).close();

  it('refuses http:// to another machine (the key would travel in clear text) unless allowed', async () => {
    expect(create('http://idv.example.com')).toThrow(/baseUrl uses http:\/\/ to another machine/);
    await expect(create('http://idv.example.com', { allowInsecureHttp: true })()).resolves.toBeUndefined();
    await expect(create('http://127.0.0.1:9')()).resolves.toBeUndefined();
    await expect(create('http://localhost:9')()).resolves.toBeUndefined();
    await expect(create('https://idv.example.com')()).resolves.toBeUndefined();
  });
});

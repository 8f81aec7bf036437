import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import net from 'node:net';
import { generateWebhookSecret } from '@verify-kit/client';
import { startSandbox } from '@verify-kit/sandbox';
import { CookieJar } from '@verify-kit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo } from '../src/start-demo.js';
import { makeStandInPages } from './support/stand-in-demo.js';

/*
 * REDIS_URL switches the demo's sessions to connect-redis: a sign-in survives a restart of the
 * demo. Needs Debian's redis-server (CI installs it); skipped, saying so, where it is missing.
 */

function hasRedisServer(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const available = hasRedisServer();
if (!available)
  console.warn('redis-sessions.test.ts: redis-server not found; install it (apt-get install redis-server)');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

describe.skipIf(!available)('sessions in Redis (REDIS_URL)', () => {
  let redis: ChildProcess;
  let redisUrl: string;
  let publicDir: string;

  beforeAll(async () => {
    publicDir = makeStandInPages();
    const port = await freePort();
    redis = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    await new Promise<void>((resolve, reject) => {
      let output = '';
      redis.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) resolve();
      });
      redis.on('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
    });
    redisUrl = `redis://127.0.0.1:${port}`;
  });

  afterAll(() => {
    redis?.kill();
    rmSync(publicDir, { recursive: true, force: true });
  });

  it('keeps a sign-in across a restart of the demo', async () => {
    const sessionSecret = 'a-fixed-secret-for-this-test-only';
    const first = await startDemo({ port: 0, reviewDelayMs: 0, publicDir, redisUrl, sessionSecret });
    expect(first.sessionStore).toBe('redis');
    let cookie = '';
    try {
      const res = await fetch(new URL('/api/demo/sign-in', first.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
        body: JSON.stringify({ name: 'Ada', email: 'ada@example.com' }),
      });
      expect(res.status).toBe(200);
      cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    } finally {
      await first.close();
    }

    const second = await startDemo({ port: 0, reviewDelayMs: 0, publicDir, redisUrl, sessionSecret });
    try {
      const me = await fetch(new URL('/api/demo/me', second.url), { headers: { cookie } });
      expect(((await me.json()) as { user: unknown }).user).toEqual({
        name: 'Ada',
        email: 'ada@example.com',
      });
    } finally {
      await second.close();
    }
  });

  it('two demo instances on one Redis act as one site: started on A, seen and gated on B', async () => {
    const sessionSecret = 'a-fixed-secret-for-this-test-only';
    const webhookSecret = generateWebhookSecret();
    const portA = await freePort();
    // The service delivers its webhooks to instance A only, as to one address of a load balancer.
    const sandbox = await startSandbox({
      reviewDelayMs: 0,
      webhookUrl: `http://127.0.0.1:${portA}/identity/webhook`,
      webhookSecret,
    });
    const upstream = { baseUrl: sandbox.url, apiKey: sandbox.apiKey, webhookSecret };
    const a = await startDemo({ port: portA, publicDir, redisUrl, sessionSecret, upstream });
    const b = await startDemo({ port: 0, publicDir, redisUrl, sessionSecret, upstream });
    const jar = new CookieJar();
    const call = async (demo: { url: string }, method: string, path: string, body?: unknown) => {
      const res = await fetch(new URL(path, demo.url), {
        method,
        headers: {
          'content-type': 'application/json',
          'sec-fetch-site': 'same-origin',
          ...(jar.size === 0 ? {} : { cookie: jar.header() ?? '' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      jar.store(res.headers.getSetCookie());
      return { status: res.status, json: (await res.json()) as Record<string, unknown> };
    };
    try {
      expect(
        (await call(a, 'POST', '/api/demo/sign-in', { name: 'Ada', email: 'ada@example.com' })).status,
      ).toBe(200);
      const started = await call(a, 'POST', '/identity/session', {});
      expect(started.status).toBe(201);
      expect((await call(b, 'GET', '/identity/status')).json.phase).toBe('awaiting_user');
      expect((await call(b, 'GET', '/api/demo/account')).status).toBe(403);

      const found = await fetch(
        new URL(`/sandbox/sessions/by-code/${started.json.sessionCode}`, sandbox.url),
      );
      const { id } = (await found.json()) as { id: string };
      const submitted = await fetch(new URL(`/sandbox/sessions/${id}/documents`, sandbox.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          type: 'P',
          number: 'U1234567',
          givenName: 'Ada',
          surname: 'Lovelace',
          country: 'GBR',
        }),
      });
      expect(submitted.status).toBe(202);
      // Follow the status on B as the widget does: long-poll with the phase last seen.
      let phase = 'awaiting_user';
      for (let i = 0; i < 10 && phase !== 'approved'; i++) {
        phase = String((await call(b, 'GET', `/identity/status?wait=20&since=${phase}`)).json.phase);
      }
      expect(phase).toBe('approved');
      expect((await call(b, 'GET', '/api/demo/account')).status).toBe(200);
      expect((await call(a, 'GET', '/api/demo/account')).status).toBe(200);
    } finally {
      await b.close();
      await a.close();
      await sandbox.close();
    }
  });
});

import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { generateWebhookSecret } from '@verify-kit/client';
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { createSandboxControl } from '@verify-kit/sandbox/control';
import { Browser, deliverWebhook, type RedisServer, startRedisServer } from '@verify-kit/testkit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { start } from '../../scripts/pack-check/exec.mjs';
import { probeHonoExample } from '../../scripts/pack-check/probe.mjs';

// The @verify-kit/hono README's examples (examples/hono, its own workspace project with hono and
// @hono/node-server), each run as a user runs it: its own Node process against the sandbox.
const root = fileURLToPath(new URL('../..', import.meta.url));
const EXAMPLES = ['examples/hono/server.ts', 'examples/hono/redis.ts'];
const SECRET = 'examples-hono-secret-of-32-characters-at-least';
const webhookSecret = generateWebhookSecret();

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, reviewDelayMs: 0 });
});
afterAll(() => sandbox.close());

function startExample(file: string, env: Record<string, string> = {}) {
  return start('node', ['--conditions=source', '--import', 'tsx', file], {
    cwd: `${root}/examples/hono`,
    ready: /listening on (http:\/\/\S+)/,
    env: {
      IDV_BASE_URL: sandbox.url,
      IDV_API_KEY: sandbox.apiKey,
      IDV_WEBHOOK_SECRET: webhookSecret,
      VERIFY_KIT_SECRET: SECRET,
      PORT: '0',
      ...env,
    },
  });
}

/** A browser that holds the cookie the probe was given. */
function browserWith(url: string, cookie: string): Browser {
  const browser = new Browser(url);
  browser.cookies.store(cookie.split('; '));
  return browser;
}

test.each(EXAMPLES)('packages/hono/README.md shows %s verbatim', async (file) => {
  const readme = await readFile(`${root}/packages/hono/README.md`, 'utf8');
  const blocks = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]);
  expect(blocks).toContain(await readFile(`${root}/${file}`, 'utf8'));
});

test('the README example: gated before approval, in after it, out again after a revoking webhook and after forget', async () => {
  const app = await startExample('server.ts');
  try {
    const url = app.match[1] ?? '';
    const probed = await probeHonoExample(url);
    const browser = browserWith(url, probed.cookie);
    const control = createSandboxControl(sandbox);
    const { identificationId } = await control.submitByCode(probed.sessionCode);
    await control.waitForStatus(identificationId, 'APPROVED');

    const account = await browser.navigate('/account');
    expect(account.status).toBe(200);
    expect(account.text).toBe('welcome');
    expect(account.text).not.toContain(sandbox.apiKey);

    const revoked = await deliverWebhook(new Browser(url), {
      secret: webhookSecret,
      identificationId,
      type: 'identification.rejected',
      status: 'REJECTED',
    });
    expect(revoked.status).toBe(204);
    expect((await browser.navigate('/account')).headers.location).toBe('/verify?returnTo=%2Faccount');

    const forgotten = await browser.post('/forget-my-verification');
    expect(forgotten.status).toBe(303);
    expect(forgotten.headers.location).toBe('/verify');
    expect((await browser.get('/identity/status')).status).toBe(404);
    expect((await browser.get('/verify')).text).toContain('<verify-identity endpoint="/identity">');
  } finally {
    app.stop();
  }
});

describe('several instances (Redis)', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(() => redis.stop());

  test('two processes on one Redis behave as one: a verification started on A is read and gated on B', async () => {
    const a = await startExample('redis.ts', { REDIS_URL: redis.url });
    const b = await startExample('redis.ts', { REDIS_URL: redis.url });
    try {
      const onA = browserWith(a.match[1] ?? '', (await probeHonoExample(a.match[1] ?? '')).cookie);
      const onB = new Browser(b.match[1] ?? '', onA.cookies);
      expect((await onB.get<{ phase: string }>('/identity/status')).json.phase).toBe('awaiting_user');
      expect((await onB.get('/ready')).json).toEqual({ ok: true, draining: false, bus: 'ok', store: 'ok' });

      const created = await onA.post<{ sessionCode: string }>('/identity/session');
      const control = createSandboxControl(sandbox);
      const { identificationId } = await control.submitByCode(created.json.sessionCode);
      await control.waitForStatus(identificationId, 'APPROVED');
      expect((await onB.get('/account')).text).toBe('welcome');
      expect((await onA.get('/account')).text).toBe('welcome');
    } finally {
      a.stop();
      b.stop();
    }
  });
});

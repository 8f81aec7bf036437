// Options from the runtime's bindings (a Worker's vars and secrets arrive with each request as
// c.env, not in process.env): createVerifyKit((env) => options) makes the kit on the first request
// and keeps it for every request after (one per isolate). Driven through app.fetch(request, env) as
// Workers call it.
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { Hono } from 'hono';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createVerifyKit } from '../src/index.js';

type Bindings = { IDV_BASE_URL: string; IDV_API_KEY: string; VERIFY_KIT_SECRET: string };
let sandbox: Sandbox;
let env: Bindings;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, reviewDelayMs: 0 });
  env = {
    IDV_BASE_URL: sandbox.url,
    IDV_API_KEY: sandbox.apiKey,
    VERIFY_KIT_SECRET: 'a-worker-secret-of-at-least-32-characters',
  };
});
afterAll(() => sandbox.close());

function workerApp() {
  const made: Bindings[] = [];
  const kit = createVerifyKit<{ Bindings: Bindings }>((bindings) => {
    made.push(bindings);
    return {
      baseUrl: bindings.IDV_BASE_URL,
      apiKey: bindings.IDV_API_KEY,
      workflowId: 'default',
      secret: bindings.VERIFY_KIT_SECRET,
      longPoll: false,
    };
  });
  const app = new Hono<{ Bindings: Bindings }>();
  app.route('/identity', kit.router);
  app.get('/account', kit.requireApproved({ redirectTo: '/verify' }), (c) => c.text('welcome'));
  return { kit, app, made };
}

const request = (path: string, init: RequestInit = {}) => new Request(`https://app.example${path}`, init);
const create = (cookie = '') =>
  request('/identity/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', cookie },
    body: '{}',
  });
const cookieOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');

it('the kit is made from the first request’s bindings, once, and serves every request after', async () => {
  const { kit, app, made } = workerApp();
  await expect(kit.health()).rejects.toThrow(/made on its first request/);
  try {
    const created = await app.fetch(create(), env);
    expect(created.status).toBe(201);
    const cookie = cookieOf(created);
    expect(cookie).toMatch(/^__Host-vk_visitor=/); // https: the __Host- cookie
    const status = await app.fetch(request('/identity/status', { headers: { cookie } }), env);
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ phase: 'awaiting_user', pollAfterMs: expect.any(Number) });
    const gated = await app.fetch(request('/account', { headers: { cookie } }), env);
    expect(gated.status).toBe(403);
    expect(made).toEqual([env]);
    expect(await kit.health()).toMatchObject({ ok: true });
  } finally {
    await kit.close();
  }
});

it('options the bindings make wrong fail every request with 500 (never a pass), naming the option', async () => {
  const { app, kit } = workerApp();
  const errors: unknown[] = [];
  app.onError((error, c) => {
    errors.push(error);
    return c.text('failed', 500);
  });
  const wrong = { ...env, VERIFY_KIT_SECRET: 'short' };
  expect((await app.fetch(request('/account'), wrong)).status).toBe(500);
  expect((await app.fetch(create(), wrong)).status).toBe(500);
  expect(String(errors[0])).toMatch(/secret/);
  await kit.close();
});

it('closed before its first request, the kit makes nothing', async () => {
  const { app, kit, made } = workerApp();
  const errors: unknown[] = [];
  app.onError((error, c) => {
    errors.push(error);
    return c.text('failed', 500);
  });
  await kit.close();
  expect((await app.fetch(request('/account'), env)).status).toBe(500);
  expect(errors).toEqual([expect.objectContaining({ code: 'KIT_CLOSED' })]);
  expect(made).toEqual([]);
});

// Work after a webhook's 204 goes to the runtime's executionCtx.waitUntil where there is one (Workers
// pass it as app.fetch's third argument); elsewhere Hono's c.executionCtx throws, and the kit goes on
// without it.
import { generateWebhookSecret, signWebhook } from '@verify-kit/client';
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { createSandboxControl } from '@verify-kit/sandbox/control';
import { Hono } from 'hono';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createVerifyKit } from '../src/index.js';

const SECRET = 'a-test-secret-of-at-least-32-characters!';
const webhookSecret = generateWebhookSecret();
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, reviewDelayMs: 0 });
});
afterAll(() => sandbox.close());

function signed(identificationId: string): Request {
  const id = `msg_${crypto.randomUUID()}`;
  const timestamp = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({
    type: 'identification.approved',
    timestamp: new Date(timestamp * 1000).toISOString(),
    data: { verificationSessionId: crypto.randomUUID(), identificationId, status: 'APPROVED' },
  });
  return new Request('https://app.example/identity/webhook', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook({ secret: webhookSecret, id, timestamp, body }),
    },
    body,
  });
}

async function withApp(work: (app: Hono, identificationId: string) => Promise<void>) {
  const kit = createVerifyKit({
    baseUrl: sandbox.url,
    apiKey: sandbox.apiKey,
    workflowId: 'default',
    webhookSecret,
    secret: SECRET,
  });
  const app = new Hono();
  app.route('/identity', kit.router);
  try {
    const created = await app.fetch(
      new Request('http://127.0.0.1/identity/session', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
        body: '{}',
      }),
    );
    const { sessionCode } = (await created.json()) as { sessionCode: string };
    const { identificationId } = await createSandboxControl(sandbox).submitByCode(sessionCode);
    await work(app, identificationId);
  } finally {
    await kit.close();
  }
}

it("a verified webhook's follow-up is handed to executionCtx.waitUntil (Workers)", async () => {
  await withApp(async (app, identificationId) => {
    const kept: Promise<unknown>[] = [];
    const executionCtx = {
      waitUntil: (work: Promise<unknown>) => void kept.push(work),
      passThroughOnException() {},
    };
    const res = await app.fetch(signed(identificationId), {}, executionCtx as never);
    expect(res.status).toBe(204);
    expect(kept).toHaveLength(1);
    await expect(kept[0]).resolves.toBeUndefined();
    // A delivery again (a retry): this instance finished its work, nothing new is started.
    const replay = signed(identificationId);
    await app.fetch(replay.clone(), {}, executionCtx as never);
    await app.fetch(replay, {}, executionCtx as never);
    expect(kept).toHaveLength(3);
    expect(kept[2]).toBe(kept[1]);
  });
});

it('without an executionCtx (Node, Bun, Deno) the webhook is answered all the same', async () => {
  await withApp(async (app, identificationId) => {
    const res = await app.fetch(signed(identificationId));
    expect(res.status).toBe(204);
  });
});

import { generateWebhookSecret } from '@verify-kit/client';
import { createSandboxControl, type SandboxControl } from '@verify-kit/sandbox/control';
import { afterEach, describe, expect, it } from 'vitest';
import { type Sandbox, type SandboxOptions, startSandbox } from '../src/index.js';
import { API_KEY } from './helpers.js';
import { receiver, until } from './webhook-receiver.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function started(options: SandboxOptions = {}): Promise<{ sandbox: Sandbox; control: SandboxControl }> {
  const sandbox = await startSandbox({ port: 0, apiKey: API_KEY, reviewDelayMs: 0, ...options });
  cleanups.push(() => sandbox.close());
  return { sandbox, control: createSandboxControl(sandbox) };
}

/** What an integrator's server does: create a session through the v1 API. */
async function createSession(sandbox: Sandbox, body: Record<string, unknown> = {}) {
  const res = await fetch(`${sandbox.url}/api/v1/verification-sessions`, {
    method: 'POST',
    headers: { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ workflowId: 'default', locale: 'en', sendOTP: false, ...body }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; identificationId: string; sessionCode: string };
}

describe('@verify-kit/sandbox/control: the person and the reviewer', () => {
  it('approves: the code opens the session, a document is submitted, the status becomes APPROVED', async () => {
    const { sandbox, control } = await started();
    const session = await createSession(sandbox);
    const ids = await control.submitByCode(session.sessionCode.toLowerCase());
    expect(ids).toEqual({ id: session.id, identificationId: session.identificationId });
    await control.waitForStatus(ids.identificationId, 'APPROVED');
    expect(await control.readStatus(ids.identificationId)).toBe('APPROVED');
    expect(await control.session(ids.id)).toMatchObject({ status: 'APPROVED', documentSubmitted: true });
  });

  it('rejects by a reviewer’s decision, and revokes an approval with setStatus', async () => {
    const { sandbox, control } = await started();
    const first = await createSession(sandbox);
    const ids = await control.submitByCode(first.sessionCode, 'manual_review');
    await control.waitForStatus(ids.identificationId, 'IN_MANUAL_REVIEW');
    expect(await control.decide(ids.identificationId, 'REJECTED')).toEqual({
      id: ids.identificationId,
      status: 'REJECTED',
    });

    const second = await createSession(sandbox);
    await control.submitByCode(second.sessionCode);
    await control.waitForStatus(second.identificationId, 'APPROVED');
    expect(await control.setStatus(second.identificationId, 'REJECTED')).toEqual({
      id: second.identificationId,
      status: 'REJECTED',
      previousStatus: 'APPROVED',
    });
  });

  it('reads the OTP from the outbox, confirms it and submits a chosen document', async () => {
    const { sandbox, control } = await started();
    const session = await createSession(sandbox, { sendOTP: true, email: 'person@example.com' });
    const [otp] = (await control.outbox({ verificationSessionId: session.id })).filter(
      (m) => m.kind === 'otp',
    );
    expect(otp?.recipient).toBe('person@example.com');
    expect(await control.messages(session.id)).toContainEqual(otp);

    await control.submitOtp(session.id, otp?.otp ?? '');
    const passport = {
      type: 'P',
      number: 'U23456789',
      givenName: 'ÇAĞRI',
      surname: 'ÖZTÜRK',
      country: 'TUR',
    } as const;
    expect(await control.submitDocument(session.id, { document: passport, scenario: 'resubmit' })).toEqual({
      status: 'IN_AUTOMATIC_REVIEW',
    });
    await control.waitForStatus(session.identificationId, 'RESUBMISSION_REQUIRED');
  });
});

describe('@verify-kit/sandbox/control: the clock, the test webhook, errors', () => {
  it('advances the clock: the session expires for the app', async () => {
    const { sandbox, control } = await started();
    const session = await createSession(sandbox, { duration: 1 });
    const before = sandbox.now();
    const { now } = await control.advanceClock(61_000);
    expect(Date.parse(now) - before).toBeGreaterThanOrEqual(61_000);
    await expect(control.sessionByCode(session.sessionCode)).rejects.toThrow(/answered 410/);
  });

  it('sends a signed test webhook and lists its delivery', async () => {
    const secret = generateWebhookSecret();
    const hooks = await receiver(secret);
    cleanups.push(hooks.close);
    const { control } = await started({ webhookUrl: hooks.url, webhookSecret: secret });

    const { webhookId } = await control.sendTestWebhook();
    const test = await until(() => hooks.received.find((r) => r.id === webhookId), 'the test event');
    expect(test).toMatchObject({ type: 'webhook.test', verified: true });
    const deliveries = await until(async () => {
      const all = await control.deliveries();
      return all.some((d) => d.webhookId === webhookId) ? all : undefined;
    }, 'the delivery log');
    expect(deliveries.find((d) => d.webhookId === webhookId)).toMatchObject({
      eventType: 'webhook.test',
      ok: true,
      status: 204,
    });
  });

  it('throws an Error naming the call, the path, the status and the body, never the key', async () => {
    const { sandbox, control } = await started();
    const error = await control.decide('no-such-identification', 'APPROVED').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(
      /^sandbox control decide: POST \/sandbox\/identifications\/no-such-identification\/decision answered 404: .*NOT_FOUND/,
    );

    const wrongKey = createSandboxControl({ url: sandbox.url, apiKey: 'sk_wrong_key' });
    const refused = (await wrongKey.outbox().catch((e: unknown) => e)) as Error;
    expect(refused.message).toMatch(/outbox: GET \/sandbox\/outbox answered 401/);
    expect(refused.message).not.toContain('sk_wrong_key');

    await expect(control.sendTestWebhook()).rejects.toThrow(/answered 409: .*WEBHOOK_NOT_CONFIGURED/);
  });
});

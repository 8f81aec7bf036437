// Interoperability with the Standard Webhooks reference implementation (the `standardwebhooks` npm
// package), over real HTTP: deliveries it signs are accepted by the kit's webhook route and do their
// job (they wake a long-poll), and every delivery the sandbox sends verifies with it.
import { randomBytes, randomUUID } from 'node:crypto';
import { createClient, generateWebhookSecret } from '@verify-kit/client';
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { createSandboxControl } from '@verify-kit/sandbox/control';
import { type Browser, listen, readBody, until } from '@verify-kit/testkit';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatusResponseBody } from '../src/index.js';
import { startApp, type TestApp } from './support/app.js';
import { startVerificationIn } from './support/fixtures.js';

const API_KEY = `sk_test_${randomBytes(16).toString('hex')}`;
const OLD_SECRET = generateWebhookSecret();
const SECRET = generateWebhookSecret();

/** A delivery as the reference library signs it, POSTed to the kit's webhook route. */
function deliverSignedByReference(browser: Browser, secret: string, payload: unknown, tamper = false) {
  const id = `msg_${randomUUID()}`;
  const sentAt = new Date();
  const body = JSON.stringify(payload);
  const signature = new Webhook(secret).sign(id, sentAt, body);
  return browser.fetch('POST', '/identity/webhook', {
    body: tamper ? body.replace('APPROVED', 'REJECTED') : body,
    headers: {
      'content-type': 'application/json',
      'sec-fetch-site': '',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': signature,
    },
  });
}

describe('the kit accepts deliveries signed by the reference library', () => {
  let sandbox: Sandbox;
  let app: TestApp;
  beforeAll(async () => {
    sandbox = await startSandbox({ apiKey: API_KEY, reviewDelayMs: 0 });
    // A rotation in progress; reads so rare that only a webhook wakes a long-poll within the test.
    app = await startApp({
      baseUrl: sandbox.url,
      apiKey: API_KEY,
      webhookSecret: [OLD_SECRET, SECRET],
      pollIntervalMs: 60_000,
    });
  });
  afterAll(async () => {
    await app.close();
    await sandbox.close();
  });

  it('a reference-signed identification.approved wakes the long-poll; a tampered one is refused', async () => {
    const person = app.browser();
    const { identificationId, sessionCode } = await startVerificationIn(sandbox, person);
    const held = person.get<StatusResponseBody>('/identity/status?wait=15&since=awaiting_user');
    const control = createSandboxControl(sandbox);
    const { id: sessionId } = await control.sessionByCode(sessionCode);
    await control.submitDocument(sessionId, { scenario: 'approve' });
    await control.waitForStatus(identificationId, 'APPROVED');
    const payload = {
      type: 'identification.approved',
      timestamp: new Date().toISOString(),
      data: { verificationSessionId: sessionId, identificationId, status: 'APPROVED' },
    };

    const tampered = await deliverSignedByReference(app.browser(), SECRET, payload, true);
    expect([tampered.status, (tampered.json as { error: { code: string } }).error.code]).toEqual([
      401,
      'WEBHOOK_SIGNATURE_INVALID',
    ]);
    expect((await deliverSignedByReference(app.browser(), OLD_SECRET, payload)).status).toBe(204);
    expect((await deliverSignedByReference(app.browser(), SECRET, payload)).status).toBe(204);
    expect((await held).json.phase).toBe('approved');
  });
});

describe("the sandbox's deliveries verify with the reference library", () => {
  it('every attempt of a whole verification (and the test event) passes Webhook.verify', async () => {
    const verified: string[] = [];
    const refused: string[] = [];
    const receiver = await listen(async (req, res) => {
      const body = (await readBody(req)).toString('utf8');
      try {
        const headers = Object.fromEntries(
          ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [
            name,
            String(req.headers[name]),
          ]),
        );
        const event = new Webhook(SECRET).verify(body, headers) as { type: string };
        verified.push(event.type);
        res.writeHead(204).end();
      } catch (error) {
        refused.push(String(error));
        res.writeHead(400).end();
      }
    });
    const sandbox = await startSandbox({
      apiKey: API_KEY,
      reviewDelayMs: 0,
      webhookUrl: `${receiver.url}/webhook`,
      webhookSecret: SECRET,
    });
    const client = createClient({ baseUrl: sandbox.url, apiKey: API_KEY });
    try {
      const created = await client.createSession({ workflowId: 'default', locale: 'en', sendOTP: false });
      const control = createSandboxControl(sandbox);
      const { id: sessionId, identificationId } = await control.sessionByCode(created.sessionCode);
      await control.submitDocument(sessionId, { scenario: 'approve' });
      await control.waitForStatus(identificationId, 'APPROVED');
      await control.sendTestWebhook();
      await until(
        () => verified.includes('identification.approved') && verified.includes('webhook.test'),
        'deliveries',
      );
      expect(refused).toEqual([]);
      expect(verified.length).toBeGreaterThanOrEqual(3);
      expect((await control.deliveries()).every((delivery) => delivery.ok)).toBe(true);
    } finally {
      await client.close();
      await sandbox.close();
      await receiver.close();
    }
  });
});

// Both clients against the real sandbox, directly and through testkit's fault proxy: the whole v1
// flow, the service's own refusals and 429, and the faults of a real network, over real HTTP.
// The sandbox and testkit are imported by path: they depend on this package, so a devDependency on
// them would make a workspace cycle.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSandboxControl, type SandboxControl } from '../../sandbox/src/control.js';
import { type Sandbox, startSandbox } from '../../sandbox/src/index.js';
import { type FaultProxy, startFaultProxy } from '../../testkit/src/fault-proxy.js';
import { isApproved, type VerifyClient } from '../src/index.js';
import { type AnyClientOptions, CLIENTS, failureOf } from './helpers/client-fixture.js';

const API_KEY = 'sk_test_client_sandbox_5c1e';
const request = { workflowId: 'default', locale: 'en', sendOTP: false } as const;

describe.each(CLIENTS)('$name client', ({ create }) => {
  let sandbox: Sandbox;
  let control: SandboxControl;
  const clients: VerifyClient[] = [];
  const make = (options: Partial<AnyClientOptions> = {}) => {
    const client = create({
      baseUrl: sandbox.url,
      apiKey: API_KEY,
      retryBaseMs: 1,
      retryMaxMs: 5,
      ...options,
    });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    sandbox = await startSandbox({ apiKey: API_KEY, reviewDelayMs: 0 });
    control = createSandboxControl(sandbox);
  });
  afterAll(() => sandbox.close());
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
  });

  describe('against the sandbox', () => {
    it('creates a session of the exact spec shape, reads it approved after a document, verifies a criterion', async () => {
      const client = make({ strict: true });
      const session = await client.createSession(request);
      expect(session.qrCodeLink).toBe(client.qrCodeUrl(session.id));
      const before = await client.getIdentification(session.identificationId);
      expect(before).toMatchObject({ id: session.identificationId, status: 'IN_AUTOMATIC_REVIEW' });

      await control.submitDocument(session.id);
      await control.waitForStatus(session.identificationId, 'APPROVED');
      const after = await client.getIdentification(session.identificationId);
      expect(isApproved(after.status)).toBe(true);
      await expect(
        client.verify(session.identificationId, { type: 'DOCUMENT_COUNTRY', value: 'TUR' }),
      ).resolves.toEqual({ verified: true });
      await expect(
        client.verify(session.identificationId, { type: 'DOCUMENT_COUNTRY', value: 'DEU' }),
      ).resolves.toEqual({ verified: false });
    });

    it('a wrong key: UPSTREAM_UNAUTHORIZED (401 on create and read, 403 on verify), never retried', async () => {
      const { identificationId } = await make().createSession(request);
      const wrong = make({ apiKey: 'sk_wrong' });
      expect(await failureOf(wrong.createSession(request))).toMatchObject({
        code: 'UPSTREAM_UNAUTHORIZED',
        status: 401,
      });
      expect(await failureOf(wrong.getIdentification(identificationId))).toMatchObject({
        code: 'UPSTREAM_UNAUTHORIZED',
        status: 401,
      });
      expect(
        await failureOf(wrong.verify(identificationId, { type: 'DOCUMENT_TYPE', value: 'I' })),
      ).toMatchObject({ code: 'UPSTREAM_UNAUTHORIZED', status: 403 });
    });

    it('an unknown identification: UPSTREAM_NOT_FOUND with the service’s error body', async () => {
      const error = await failureOf(make().getIdentification('0b5c8a34-6a1e-4d8e-9a57-2f4f0c1d9e11'));
      expect(error).toMatchObject({ code: 'UPSTREAM_NOT_FOUND', status: 404 });
      expect(error.body).toMatchObject({ error: { code: expect.any(String) } });
    });

    it('the service’s 429 with Retry-After: a read waits it out, then succeeds; a creation does not', async () => {
      const limited = await startSandbox({
        apiKey: API_KEY,
        reviewDelayMs: 0,
        rateLimit: { requests: 1, windowMs: 1_000 },
      });
      try {
        const client = make({ baseUrl: limited.url });
        const { identificationId } = await client.createSession(request);
        const asked = Date.now();
        await expect(client.getIdentification(identificationId)).resolves.toMatchObject({
          id: identificationId,
        });
        expect(Date.now() - asked).toBeGreaterThanOrEqual(900);

        await client.getIdentification(identificationId);
        expect(await failureOf(client.createSession(request))).toMatchObject({
          code: 'UPSTREAM_RATE_LIMITED',
          status: 429,
          retryAfterMs: expect.any(Number),
        });
      } finally {
        await limited.close();
      }
    });
  });

  describe('through the fault proxy', () => {
    let proxy: FaultProxy;
    let identificationId: string;
    beforeEach(async () => {
      proxy = await startFaultProxy({ target: sandbox.url, delayMs: [1_000, 1_000] });
      ({ identificationId } = await make().createSession(request));
    });
    afterEach(() => proxy.close());

    const viaProxy = (options: Partial<AnyClientOptions> = {}) => make({ baseUrl: proxy.url, ...options });

    it('answers passed through unchanged', async () => {
      await expect(viaProxy().getIdentification(identificationId)).resolves.toMatchObject({
        id: identificationId,
      });
      expect(proxy.stats().byOutcome.pass).toBe(1);
    });

    it('5xx: a read retried on 502 and 503 (not 500) until the retries run out, a creation sent once', async () => {
      proxy.setRates({ server_error: 1 });
      const client = viaProxy();
      const error = await failureOf(client.getIdentification(identificationId));
      // The proxy picks 500, 502 or 503 at random: the read stops at a 500 or after three attempts.
      const statuses = proxy.records().map((record) => Number(record.detail?.split(' ')[0]));
      expect(statuses.slice(0, -1)).not.toContain(500);
      expect(statuses.at(-1) === 500 || statuses.length === 3).toBe(true);
      expect(error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', status: statuses.at(-1) });

      proxy.resetStats();
      expect((await failureOf(client.createSession(request))).code).toBe('UPSTREAM_UNAVAILABLE');
      expect(proxy.stats().requests).toBe(1);
    });

    it('a connection dropped after it was made: UPSTREAM_UNAVAILABLE; a creation is not retried (it may have arrived)', async () => {
      proxy.setRates({ drop: 1 });
      const client = viaProxy();
      expect((await failureOf(client.getIdentification(identificationId))).code).toBe('UPSTREAM_UNAVAILABLE');
      expect(proxy.stats().requests).toBe(3);
      expect((await failureOf(client.createSession(request))).code).toBe('UPSTREAM_UNAVAILABLE');
      expect(proxy.stats().requests).toBe(4);
    });

    it('an answer slower than timeoutMs: UPSTREAM_TIMEOUT after the read retries', async () => {
      proxy.setRates({ delay: 1 });
      const error = await failureOf(
        viaProxy({ timeoutMs: 200, retries: 1 }).getIdentification(identificationId),
      );
      expect(error.code).toBe('UPSTREAM_TIMEOUT');
      expect(proxy.stats().requests).toBe(2);
    });

    it('a body cut off by a reset: UPSTREAM_UNAVAILABLE', async () => {
      proxy.setRates({ reset: 1 });
      const error = await failureOf(viaProxy({ retries: 0 }).getIdentification(identificationId));
      expect(error.code).toBe('UPSTREAM_UNAVAILABLE');
    });

    it('an approval rewritten to a status the spec does not know is never approved', async () => {
      await control.setStatus(identificationId, 'APPROVED');
      proxy.setRates({ unknown_status: 1 });
      const client = viaProxy({ retries: 0 });
      // The proxy writes e.g. APPROVED_PENDING or approved (accepted, not approved) or '' (refused).
      const reads = await Promise.allSettled(
        Array.from({ length: 12 }, () => client.getIdentification(identificationId)),
      );
      for (const read of reads) {
        if (read.status === 'fulfilled') expect(isApproved(read.value.status)).toBe(false);
        else expect(read.reason).toMatchObject({ code: 'UPSTREAM_BAD_RESPONSE' });
      }
      expect(reads.some((read) => read.status === 'fulfilled')).toBe(true);
    });
  });
});

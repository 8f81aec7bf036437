import { describe, expect, it } from 'vitest';
import { client, clientWith, describeEachClient, failureOf, upstream } from './helpers/client-fixture.js';
import { closedPortUrl, json, silence } from './helpers/fake-upstream.js';
import { IDENTIFICATION_ID, sessionRequest } from './helpers/sample-session.js';

describeEachClient(() => {
  describe('no answer', () => {
    it('slow headers: UPSTREAM_TIMEOUT, also after the read retries', async () => {
      const hasty = clientWith({ timeoutMs: 100, retries: 1, retryBaseMs: 1 });
      try {
        upstream.answer(silence);
        const error = await failureOf(hasty.getIdentification(IDENTIFICATION_ID));
        expect(error.code).toBe('UPSTREAM_TIMEOUT');
        expect(error.status).toBeUndefined();
        expect(upstream.requests).toHaveLength(2);
      } finally {
        await hasty.close();
      }
    });

    it('a body that stops half way: UPSTREAM_TIMEOUT', async () => {
      const hasty = clientWith({ timeoutMs: 100, retries: 0 });
      try {
        upstream.answer((res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"id":');
        });
        expect((await failureOf(hasty.getIdentification(IDENTIFICATION_ID))).code).toBe('UPSTREAM_TIMEOUT');
      } finally {
        await hasty.close();
      }
    });

    it('connection refused: UPSTREAM_UNAVAILABLE, for reads and for createSession', async () => {
      const refused = clientWith({ baseUrl: await closedPortUrl(), retryBaseMs: 1, retryMaxMs: 2 });
      try {
        const read = await failureOf(refused.getIdentification(IDENTIFICATION_ID));
        expect(read.code).toBe('UPSTREAM_UNAVAILABLE');
        expect(read.message).toContain('ECONNREFUSED');
        expect((await failureOf(refused.createSession(sessionRequest))).code).toBe('UPSTREAM_UNAVAILABLE');
      } finally {
        await refused.close();
      }
    });

    it('the server dropping the connection: UPSTREAM_UNAVAILABLE', async () => {
      upstream.answer((res) => res.socket?.destroy());
      const error = await failureOf(client.getIdentification(IDENTIFICATION_ID));
      expect(error.code).toBe('UPSTREAM_UNAVAILABLE');
      expect(upstream.requests).toHaveLength(3);
    });
  });

  describe('abort', () => {
    it('rejects with the signal reason while waiting for the answer', async () => {
      upstream.answer(silence);
      const controller = new AbortController();
      const call = client.getIdentification(IDENTIFICATION_ID, { signal: controller.signal });
      await upstream.received(1);
      const reason = new Error('user went away');
      controller.abort(reason);
      await expect(call).rejects.toBe(reason);
    });

    it('rejects during a backoff sleep without another attempt', async () => {
      upstream.answer(json(429, {}, { 'retry-after': '5' }));
      const controller = new AbortController();
      const call = client.getIdentification(IDENTIFICATION_ID, { signal: controller.signal });
      await upstream.received(1);
      controller.abort();
      await expect(call).rejects.toMatchObject({ name: 'AbortError' });
      expect(upstream.requests).toHaveLength(1);
    });

    it('an already aborted signal sends nothing', async () => {
      await expect(
        client.getIdentification(IDENTIFICATION_ID, { signal: AbortSignal.abort() }),
      ).rejects.toMatchObject({
        name: 'AbortError',
      });
      await expect(
        client.createSession(sessionRequest, { signal: AbortSignal.abort() }),
      ).rejects.toMatchObject({
        name: 'AbortError',
      });
      expect(upstream.requests).toHaveLength(0);
    });
  });
});

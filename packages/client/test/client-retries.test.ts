import { describe, expect, it } from 'vitest';
import { client, clientWith, describeEachClient, failureOf, upstream } from './helpers/client-fixture.js';
import { json, silence, text } from './helpers/fake-upstream.js';
import { IDENTIFICATION_ID, sessionAnswer, sessionRequest } from './helpers/sample-session.js';

describeEachClient(() => {
  describe('retries of reads', () => {
    it('a read is retried after a 503 and then succeeds', async () => {
      upstream.answer(text(503, 'busy'), json(200, { id: IDENTIFICATION_ID, status: 'APPROVED' }));
      await expect(client.getIdentification(IDENTIFICATION_ID)).resolves.toMatchObject({
        status: 'APPROVED',
      });
      expect(upstream.requests).toHaveLength(2);
    });

    it('verify (no side effect) is retried after 502 and 504', async () => {
      upstream.answer(text(502, 'a'), text(504, 'b'), json(200, { verified: false }));
      await expect(
        client.verify(IDENTIFICATION_ID, { type: 'DOCUMENT_NUMBER', value: 'A12 345' }),
      ).resolves.toEqual({
        verified: false,
      });
      expect(upstream.requests.map((r) => r.body)).toEqual(
        Array(3).fill('{"type":"DOCUMENT_NUMBER","value":"A12 345"}'),
      );
    });

    it('gives up after `retries` extra attempts', async () => {
      const patient = clientWith({ retries: 4, retryBaseMs: 1, retryMaxMs: 2 });
      try {
        upstream.answer(text(503, 'busy'));
        expect((await failureOf(patient.getIdentification(IDENTIFICATION_ID))).code).toBe(
          'UPSTREAM_UNAVAILABLE',
        );
        expect(upstream.requests).toHaveLength(5);
      } finally {
        await patient.close();
      }
    });

    it('honours Retry-After on a 429 (waits at least that long) and then succeeds', async () => {
      upstream.answer(
        json(429, { error: { code: 'RATE_LIMITED', message: 'slow down' } }, { 'retry-after': '1' }),
        json(200, { id: IDENTIFICATION_ID, status: 'REJECTED' }),
      );
      await expect(client.getIdentification(IDENTIFICATION_ID)).resolves.toMatchObject({
        status: 'REJECTED',
      });
      const [first, second] = upstream.requests;
      expect(second!.at - first!.at).toBeGreaterThanOrEqual(990);
    });

    it('429 until the retries run out: UPSTREAM_RATE_LIMITED with the body', async () => {
      const body = { error: { code: 'RATE_LIMITED', message: 'slow down' } };
      upstream.answer(json(429, body, { 'retry-after': '0' }));
      const error = await failureOf(client.getIdentification(IDENTIFICATION_ID));
      expect(error).toMatchObject({ code: 'UPSTREAM_RATE_LIMITED', status: 429, body });
      expect(upstream.requests).toHaveLength(3);
    });

    it('a Retry-After longer than the cap gives up at once rather than sleeping', async () => {
      upstream.answer(
        json(
          429,
          { error: { code: 'RATE_LIMITED', message: 'come back in an hour' } },
          { 'retry-after': '3600' },
        ),
      );
      expect((await failureOf(client.getIdentification(IDENTIFICATION_ID))).code).toBe(
        'UPSTREAM_RATE_LIMITED',
      );
      expect(upstream.requests).toHaveLength(1);
    });
  });

  describe('createSession is never retried', () => {
    it('createSession is NOT retried on a 503', async () => {
      upstream.answer(text(503, 'busy'), json(201, sessionAnswer(upstream.url)));
      expect((await failureOf(client.createSession(sessionRequest))).code).toBe('UPSTREAM_UNAVAILABLE');
      expect(upstream.requests).toHaveLength(1);
    });

    it('createSession is NOT retried on a 429 nor after a timeout', async () => {
      upstream.answer(json(429, {}, { 'retry-after': '0' }));
      expect((await failureOf(client.createSession(sessionRequest))).code).toBe('UPSTREAM_RATE_LIMITED');
      expect(upstream.requests).toHaveLength(1);

      const hasty = clientWith({ timeoutMs: 100, retryBaseMs: 1 });
      try {
        upstream.answer(silence);
        expect((await failureOf(hasty.createSession(sessionRequest))).code).toBe('UPSTREAM_TIMEOUT');
        expect(upstream.requests).toHaveLength(2);
      } finally {
        await hasty.close();
      }
    });
  });
});

import { describe, expect, it } from 'vitest';
import { client, describeEachClient, failureOf, upstream } from './helpers/client-fixture.js';
import { json, text } from './helpers/fake-upstream.js';
import { IDENTIFICATION_ID, sessionAnswer, sessionRequest } from './helpers/sample-session.js';

describeEachClient(() => {
  describe('status mapping: error statuses', () => {
    it.each([
      [400, 'UPSTREAM_BAD_REQUEST'],
      [422, 'UPSTREAM_BAD_REQUEST'],
      [401, 'UPSTREAM_UNAUTHORIZED'],
      [403, 'UPSTREAM_UNAUTHORIZED'],
      [404, 'UPSTREAM_NOT_FOUND'],
      [410, 'UPSTREAM_NOT_FOUND'],
      [500, 'UPSTREAM_UNAVAILABLE'],
      [409, 'UPSTREAM_BAD_RESPONSE'],
      [302, 'UPSTREAM_BAD_RESPONSE'],
    ])('HTTP %i -> %s with the status and the parsed error body, not retried', async (status, code) => {
      const body = { error: { code: 'SOMETHING', message: 'told you so' } };
      upstream.answer(json(status, body));
      const error = await failureOf(client.getIdentification(IDENTIFICATION_ID));
      expect(error).toMatchObject({ code, status, body });
      expect(upstream.requests).toHaveLength(1);
    });

    it('a redirect is not followed (the key never goes elsewhere): UPSTREAM_BAD_RESPONSE', async () => {
      upstream.answer(
        json(307, {}, { location: `${upstream.url}/elsewhere` }),
        json(200, { id: IDENTIFICATION_ID, status: 'APPROVED' }),
      );
      expect(await failureOf(client.getIdentification(IDENTIFICATION_ID))).toMatchObject({
        code: 'UPSTREAM_BAD_RESPONSE',
        status: 307,
      });
      expect(upstream.requests).toHaveLength(1);
    });

    it('a 502 with an HTML page: UPSTREAM_UNAVAILABLE, the text as body, after the retries', async () => {
      upstream.answer(text(502, '<html><body>Bad Gateway</body></html>', { 'content-type': 'text/html' }));
      const error = await failureOf(client.getIdentification(IDENTIFICATION_ID));
      expect(error).toMatchObject({
        code: 'UPSTREAM_UNAVAILABLE',
        status: 502,
        body: '<html><body>Bad Gateway</body></html>',
      });
      expect(upstream.requests).toHaveLength(3);
    });

    it('a huge error body is read up to the cap and kept short', async () => {
      upstream.answer(text(500, 'x'.repeat(3 * 1024 * 1024)));
      const error = await failureOf(client.createSession(sessionRequest));
      expect(error.code).toBe('UPSTREAM_UNAVAILABLE');
      expect(typeof error.body).toBe('string');
      expect((error.body as string).length).toBeLessThan(4096);
    });
  });

  describe('status mapping: a 2xx that is not a valid answer', () => {
    it('a 2xx that is not JSON: UPSTREAM_BAD_RESPONSE', async () => {
      upstream.answer(text(200, '{"id": "abc", "status": '));
      const error = await failureOf(client.getIdentification(IDENTIFICATION_ID));
      expect(error).toMatchObject({
        code: 'UPSTREAM_BAD_RESPONSE',
        status: 200,
        body: '{"id": "abc", "status": ',
      });
      expect(upstream.requests).toHaveLength(1);
    });

    it('a 2xx JSON of the wrong shape: UPSTREAM_BAD_RESPONSE with the issues as details', async () => {
      upstream.answer(
        json(201, { ...sessionAnswer(upstream.url), sessionCode: '', qrCodeLink: 'ftp://x/y' }),
      );
      const error = await failureOf(client.createSession(sessionRequest));
      expect(error.code).toBe('UPSTREAM_BAD_RESPONSE');
      expect(error.details).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ path: 'sessionCode' }),
          expect.objectContaining({ path: 'qrCodeLink' }),
        ]),
      );
    });

    it.each([
      ['verify', { verified: 'yes' }],
      ['getIdentification', { id: IDENTIFICATION_ID }],
      ['getIdentification', [{ id: IDENTIFICATION_ID, status: 'APPROVED' }]],
      ['getIdentification', null],
    ])('%s answered %j: UPSTREAM_BAD_RESPONSE', async (method, body) => {
      upstream.answer(json(200, body));
      const call =
        method === 'verify'
          ? client.verify(IDENTIFICATION_ID, { type: 'DOCUMENT_TYPE', value: 'P' })
          : client.getIdentification(IDENTIFICATION_ID);
      expect((await failureOf(call)).code).toBe('UPSTREAM_BAD_RESPONSE');
    });

    it('a 2xx body over 1 MiB: UPSTREAM_BAD_RESPONSE', async () => {
      upstream.answer(
        json(200, { id: IDENTIFICATION_ID, status: 'APPROVED', padding: 'x'.repeat(1024 * 1024) }),
      );
      expect((await failureOf(client.getIdentification(IDENTIFICATION_ID))).code).toBe(
        'UPSTREAM_BAD_RESPONSE',
      );
    });
  });
});

import { describe, expect, it } from 'vitest';
import { isApproved } from '../src/index.js';
import { client, clientWith, describeEachClient, upstream } from './helpers/client-fixture.js';
import { json } from './helpers/fake-upstream.js';
import {
  API_KEY,
  IDENTIFICATION_ID,
  SESSION_ID,
  sessionAnswer,
  sessionRequest,
} from './helpers/sample-session.js';

describeEachClient(() => {
  describe('answers of each method', () => {
    it('createSession POSTs the validated JSON body with the key, and returns the parsed answer', async () => {
      upstream.answer(json(201, sessionAnswer(upstream.url)));
      const session = await client.createSession({
        ...sessionRequest,
        duration: 15,
        approvalCriteria: [
          { type: 'DOCUMENT_OWNER_NAME', condition: 'EQUALS', value: 'Ayşe', accentInsensitive: true },
        ],
      });
      expect(session).toEqual(sessionAnswer(upstream.url));
      const [received] = upstream.requests;
      expect(received).toMatchObject({ method: 'POST', url: '/api/v1/verification-sessions' });
      expect(received?.headers['x-api-key']).toBe(API_KEY);
      expect(received?.headers.accept).toBe('application/json');
      expect(received?.headers['content-type']).toBe('application/json');
      expect(JSON.parse(received?.body ?? '')).toEqual({
        ...sessionRequest,
        duration: 15,
        approvalCriteria: [
          { type: 'DOCUMENT_OWNER_NAME', condition: 'EQUALS', value: 'Ayşe', accentInsensitive: true },
        ],
      });
    });

    it('getIdentification GETs the URL-encoded id with the key and no body', async () => {
      upstream.answer(json(200, { id: IDENTIFICATION_ID, status: 'APPROVED', extra: 1 }));
      const identification = await client.getIdentification(IDENTIFICATION_ID);
      expect(identification).toMatchObject({ id: IDENTIFICATION_ID, status: 'APPROVED' });
      expect(isApproved(identification.status)).toBe(true);

      await client.getIdentification('a/b?c#d é');
      const [first, second] = upstream.requests;
      expect(first).toMatchObject({
        method: 'GET',
        url: `/api/v1/identifications/${IDENTIFICATION_ID}`,
        body: '',
      });
      expect(first?.headers['x-api-key']).toBe(API_KEY);
      expect(first?.headers['content-type']).toBeUndefined();
      expect(second?.url).toBe('/api/v1/identifications/a%2Fb%3Fc%23d%20%C3%A9');
    });

    it('verify POSTs { type, value } and returns { verified }', async () => {
      upstream.answer(json(200, { verified: true }));
      await expect(
        client.verify(IDENTIFICATION_ID, { type: 'DOCUMENT_COUNTRY', value: 'TUR' }),
      ).resolves.toEqual({
        verified: true,
      });
      const [received] = upstream.requests;
      expect(received).toMatchObject({
        method: 'POST',
        url: `/api/v1/identifications/${IDENTIFICATION_ID}/verify`,
      });
      expect(received?.headers['x-api-key']).toBe(API_KEY);
      expect(JSON.parse(received?.body ?? '')).toEqual({ type: 'DOCUMENT_COUNTRY', value: 'TUR' });
    });

    it('accepts a status it does not know, which is not approved', async () => {
      upstream.answer(json(200, { id: IDENTIFICATION_ID, status: 'ON_HOLD_FOR_AUDIT' }));
      const identification = await client.getIdentification(IDENTIFICATION_ID);
      expect(identification.status).toBe('ON_HOLD_FOR_AUDIT');
      expect(isApproved(identification.status)).toBe(false);
    });
  });

  describe('the base address and the connection', () => {
    it('keeps a path prefix of baseUrl, and qrCodeUrl builds the spec address', async () => {
      const prefixed = clientWith({ baseUrl: `${upstream.url}/idv/` });
      try {
        upstream.answer(json(200, { id: IDENTIFICATION_ID, status: 'IN_MANUAL_REVIEW' }));
        await prefixed.getIdentification(IDENTIFICATION_ID);
        expect(upstream.requests[0]?.url).toBe(`/idv/api/v1/identifications/${IDENTIFICATION_ID}`);
        expect(prefixed.baseUrl).toBe(`${upstream.url}/idv`);
        expect(prefixed.qrCodeUrl(SESSION_ID)).toBe(
          `${upstream.url}/idv/api/v1/verification-sessions/${SESSION_ID}/qr-code`,
        );
        expect(prefixed.qrCodeUrl('a b/c')).toBe(
          `${upstream.url}/idv/api/v1/verification-sessions/a%20b%2Fc/qr-code`,
        );
      } finally {
        await prefixed.close();
      }
    });

    it('reuses keep-alive connections for consecutive calls', async () => {
      upstream.answer(json(200, { id: IDENTIFICATION_ID, status: 'APPROVED' }));
      for (let i = 0; i < 4; i++) await client.getIdentification(IDENTIFICATION_ID);
      const ports = new Set(upstream.requests.map((r) => r.remotePort));
      expect(upstream.requests).toHaveLength(4);
      expect(ports.size).toBeLessThan(4);
    });
  });
});

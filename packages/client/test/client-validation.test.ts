import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { type CreateSessionRequest, createClient, VerifyKitError } from '../src/index.js';
import {
  client,
  clientWith,
  describeEachClient,
  failureOf,
  upstream,
  useFakeUpstream,
} from './helpers/client-fixture.js';
import { json } from './helpers/fake-upstream.js';
import { API_KEY, IDENTIFICATION_ID } from './helpers/sample-session.js';

describeEachClient(({ name, create }) => {
  describe('request validation happens before any network call', () => {
    it.each([
      ['no contact with sendOTP true', { workflowId: 'default', locale: 'en' }, 'email'],
      [
        'both contacts',
        { workflowId: 'default', locale: 'en', email: 'a@b.co', phoneNumber: '+90 555 123 4567' },
        'phoneNumber',
      ],
      ['a locale outside en/tr', { workflowId: 'default', locale: 'de', sendOTP: false }, 'locale'],
      ['duration 0', { workflowId: 'default', locale: 'en', sendOTP: false, duration: 0 }, 'duration'],
      [
        'an unknown condition',
        {
          workflowId: 'default',
          locale: 'en',
          sendOTP: false,
          approvalCriteria: [{ type: 'DOCUMENT_NUMBER', condition: 'LIKE', value: 'x' }],
        },
        'approvalCriteria.0.condition',
      ],
    ])('createSession with %s: INVALID_REQUEST naming %s', async (_name, body, path) => {
      const error = await failureOf(client.createSession(body as CreateSessionRequest));
      expect(error.code).toBe('INVALID_REQUEST');
      expect(error.details).toEqual(
        expect.arrayContaining([expect.objectContaining({ path, message: expect.any(String) })]),
      );
      expect(upstream.requests).toHaveLength(0);
    });

    it('verify with a value of the wrong shape: INVALID_REQUEST', async () => {
      const error = await failureOf(client.verify(IDENTIFICATION_ID, { type: 'DOCUMENT_TYPE', value: 'X' }));
      expect(error).toMatchObject({
        code: 'INVALID_REQUEST',
        details: [expect.objectContaining({ path: 'value' })],
      });
      expect(upstream.requests).toHaveLength(0);
    });

    it.each([[''], ['.'], ['..'], [undefined as unknown as string]])(
      'the id %j: INVALID_REQUEST',
      async (id) => {
        expect((await failureOf(client.getIdentification(id))).code).toBe('INVALID_REQUEST');
        expect((await failureOf(client.verify(id, { type: 'DOCUMENT_TYPE', value: 'I' }))).code).toBe(
          'INVALID_REQUEST',
        );
        expect(() => client.qrCodeUrl(id)).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
        expect(upstream.requests).toHaveLength(0);
      },
    );
  });

  describe('options', () => {
    it.each([
      ['baseUrl', { baseUrl: 'ftp://example.com' }],
      ['baseUrl', { baseUrl: 'https://example.com/?x=1' }],
      ['baseUrl', { baseUrl: undefined }],
      ['apiKey', { apiKey: '' }],
      ['apiKey', { apiKey: 42 }],
      ['timeoutMs', { timeoutMs: 0 }],
      ['timeoutMs', { timeoutMs: '100' }],
      ['retries', { retries: -1 }],
      ['retries', { retries: 1.5 }],
      ['retryBaseMs', { retryBaseMs: -5 }],
      ['retryMaxMs', { retryMaxMs: Number.NaN }],
      // Each client's own option; the other's is an unknown key, ignored.
      name === 'undici' ? ['dispatcher', { dispatcher: {} }] : ['fetch', { fetch: {} }],
    ])('a wrong %s throws INVALID_OPTIONS naming it', (option, change) => {
      const options = { baseUrl: 'https://idv.example.com', apiKey: API_KEY, ...change };
      let thrown: unknown;
      try {
        create(options as never);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(VerifyKitError);
      expect(thrown).toMatchObject({
        code: 'INVALID_OPTIONS',
        details: [expect.objectContaining({ path: option })],
      });
      expect((thrown as Error).message).toContain(option);
      expect((thrown as Error).message).toContain(name === 'undici' ? 'createClient' : 'createFetchClient');
    });

    it('after close(), it refuses new calls with a VerifyKitError', async () => {
      await client.close();
      expect((await failureOf(client.getIdentification(IDENTIFICATION_ID))).code).toBe(
        'UPSTREAM_UNAVAILABLE',
      );
      expect(upstream.requests).toHaveLength(0);
    });
  });
});

describe('createClient with a dispatcher', () => {
  useFakeUpstream(createClient);

  it('uses a dispatcher passed in, and close() leaves it open', async () => {
    const agent = new Agent({ keepAliveTimeout: 1_000 });
    try {
      const shared = clientWith({ dispatcher: agent });
      upstream.answer(json(200, { id: IDENTIFICATION_ID, status: 'APPROVED' }));
      await shared.getIdentification(IDENTIFICATION_ID);
      await shared.close();
      const again = clientWith({ dispatcher: agent });
      await expect(again.getIdentification(IDENTIFICATION_ID)).resolves.toMatchObject({
        status: 'APPROVED',
      });
      expect(upstream.requests).toHaveLength(2);
    } finally {
      await agent.close();
    }
  });
});

import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isVerifyKitError, type VerifyKitError } from '../src/index.js';
import { client, clientWith, describeEachClient, failureOf, upstream } from './helpers/client-fixture.js';
import { closedPortUrl, json, text } from './helpers/fake-upstream.js';
import { API_KEY, IDENTIFICATION_ID } from './helpers/sample-session.js';

describeEachClient(({ create }) => {
  describe('the API key never leaks', () => {
    function expectNoKey(error: unknown) {
      expect(isVerifyKitError(error)).toBe(true);
      const e = error as VerifyKitError;
      for (const rendered of [
        e.message,
        String(e),
        e.stack ?? '',
        JSON.stringify(e),
        JSON.stringify(e.body) ?? '',
        JSON.stringify(e.details) ?? '',
        inspect(e, { depth: 20 }),
      ]) {
        expect(rendered).not.toContain(API_KEY);
      }
    }

    it.each([
      [
        'a 401 JSON body echoing it',
        json(401, { error: { code: 'BAD_KEY', message: `unknown key ${API_KEY}`, [API_KEY]: [API_KEY] } }),
      ],
      ['a 500 text body echoing it', text(500, `stack trace... x-api-key: ${API_KEY}`)],
      ['a 200 of the wrong shape echoing it', json(200, { id: API_KEY, status: 42, key: API_KEY })],
      ['a 200 that is not JSON echoing it', text(200, `<${API_KEY}`)],
    ])('not in an error from %s', async (_name, answer) => {
      upstream.answer(answer);
      const error = await failureOf(client.getIdentification(IDENTIFICATION_ID));
      expectNoKey(error);
      expect(JSON.stringify(error.body)).toContain('[redacted]');
    });

    it('not in network, timeout and validation errors', async () => {
      const refused = clientWith({ baseUrl: await closedPortUrl(), retries: 0 });
      expectNoKey(await failureOf(refused.getIdentification(IDENTIFICATION_ID)));
      await refused.close();
      expectNoKey(await failureOf(client.getIdentification(API_KEY.slice(0, 0))));
      expectNoKey(await failureOf(client.verify(API_KEY, { type: 'DOCUMENT_COUNTRY', value: API_KEY })));
    });

    it('not in INVALID_OPTIONS errors', () => {
      for (const options of [
        { baseUrl: 'not a url', apiKey: API_KEY },
        { baseUrl: upstream.url, apiKey: `${API_KEY}\r\nx-evil: 1` },
        { baseUrl: upstream.url, apiKey: ` ${API_KEY}` },
        { baseUrl: `http://user:${API_KEY}@127.0.0.1/`, apiKey: API_KEY },
      ]) {
        let thrown: unknown;
        try {
          create(options);
        } catch (error) {
          thrown = error;
        }
        expect(thrown).toMatchObject({ code: 'INVALID_OPTIONS' });
        expectNoKey(thrown);
      }
    });
  });
});

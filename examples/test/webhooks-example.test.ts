import { isVerifyKitError } from '@verify-kit/client';
import { type Listening, listen, readBody } from '@verify-kit/testkit';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { receive, signedHeaders } from '../client/webhooks.js';

// The client README's webhook example as a sender and a receiver talking over real HTTP.
let receiver: Listening;

beforeAll(async () => {
  receiver = await listen(async (req, res) => {
    try {
      const { id } = receive(req, await readBody(req));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id }));
    } catch (error) {
      res.writeHead(401).end(isVerifyKitError(error) ? error.code : 'unexpected');
    }
  });
});

afterAll(() => receiver.close());

const deliver = (headers: Record<string, string>, body: string) =>
  fetch(receiver.url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });

test('a body signed by the sender is accepted by the receiver, with its id', async () => {
  const body = JSON.stringify({ type: 'identification.approved', data: { identificationId: 'id_1' } });
  const answer = await deliver(signedHeaders('msg_1', body), body);
  expect(answer.status).toBe(200);
  expect(await answer.json()).toEqual({ id: 'msg_1' });
});

test('a body changed after signing, or a delivery without the headers, is refused', async () => {
  const body = JSON.stringify({ type: 'identification.approved' });
  const changed = await deliver(signedHeaders('msg_2', body), body.replace('approved', 'rejected'));
  expect([changed.status, await changed.text()]).toEqual([401, 'WEBHOOK_SIGNATURE_INVALID']);
  const unsigned = await deliver({}, body);
  expect([unsigned.status, await unsigned.text()]).toEqual([401, 'WEBHOOK_HEADERS_MISSING']);
});

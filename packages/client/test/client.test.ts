import { inspect } from 'node:util';
import { Agent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type CreateSessionRequest,
  createClient,
  isApproved,
  isVerifyKitError,
  type VerifyClient,
  VerifyKitError,
} from '../src/index.js';
import {
  closedPortUrl,
  type FakeUpstream,
  json,
  silence,
  startFakeUpstream,
  text,
} from './helpers/fake-upstream.js';

const API_KEY = 'sk_test_9f8e7d6c5b4a-DO-NOT-LEAK';
const SESSION_ID = '0b5c8a34-6a1e-4d8e-9a57-2f4f0c1d9e11';
const IDENTIFICATION_ID = '7d0f3b5e-1c2a-4b9e-8f6d-3a2b1c0d9e8f';

function sessionAnswer(base: string) {
  return {
    id: SESSION_ID,
    identificationId: IDENTIFICATION_ID,
    sessionCode: 'K7M2P9QX',
    deepLink: `idv://app-url/${base}/verification-session/${SESSION_ID}`,
    qrCodeLink: `${base}/api/v1/verification-sessions/${SESSION_ID}/qr-code`,
    sessionPageLink: `${base}/public/verification-sessions/${SESSION_ID}`,
    expiresAt: '2030-01-01T00:30:00.000Z',
  };
}

const sessionRequest: CreateSessionRequest = {
  workflowId: 'default',
  email: 'ayse@example.com',
  locale: 'tr',
};

let upstream: FakeUpstream;
let client: VerifyClient;

beforeEach(async () => {
  upstream = await startFakeUpstream();
  client = createClient({
    baseUrl: upstream.url,
    apiKey: API_KEY,
    timeoutMs: 2_000,
    retryBaseMs: 1,
    retryMaxMs: 5,
  });
});

afterEach(async () => {
  await client.close();
  await upstream.close();
});

async function failureOf(promise: Promise<unknown>): Promise<VerifyKitError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof VerifyKitError)) throw new Error(`expected a VerifyKitError, got ${inspect(error)}`);
  return error;
}

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

  it('keeps a path prefix of baseUrl, and qrCodeUrl builds the spec address', async () => {
    const prefixed = createClient({ baseUrl: `${upstream.url}/idv/`, apiKey: API_KEY });
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

describe('status mapping', () => {
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
    upstream.answer(json(201, { ...sessionAnswer(upstream.url), sessionCode: '', qrCodeLink: 'ftp://x/y' }));
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
    expect((await failureOf(client.getIdentification(IDENTIFICATION_ID))).code).toBe('UPSTREAM_BAD_RESPONSE');
  });
});

describe('retries', () => {
  it('a read is retried after a 503 and then succeeds', async () => {
    upstream.answer(text(503, 'busy'), json(200, { id: IDENTIFICATION_ID, status: 'APPROVED' }));
    await expect(client.getIdentification(IDENTIFICATION_ID)).resolves.toMatchObject({ status: 'APPROVED' });
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
    const patient = createClient({
      baseUrl: upstream.url,
      apiKey: API_KEY,
      retries: 4,
      retryBaseMs: 1,
      retryMaxMs: 2,
    });
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
    await expect(client.getIdentification(IDENTIFICATION_ID)).resolves.toMatchObject({ status: 'REJECTED' });
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
    expect((await failureOf(client.getIdentification(IDENTIFICATION_ID))).code).toBe('UPSTREAM_RATE_LIMITED');
    expect(upstream.requests).toHaveLength(1);
  });

  it('createSession is NOT retried on a 503', async () => {
    upstream.answer(text(503, 'busy'), json(201, sessionAnswer(upstream.url)));
    expect((await failureOf(client.createSession(sessionRequest))).code).toBe('UPSTREAM_UNAVAILABLE');
    expect(upstream.requests).toHaveLength(1);
  });

  it('createSession is NOT retried on a 429 nor after a timeout', async () => {
    upstream.answer(json(429, {}, { 'retry-after': '0' }));
    expect((await failureOf(client.createSession(sessionRequest))).code).toBe('UPSTREAM_RATE_LIMITED');
    expect(upstream.requests).toHaveLength(1);

    const hasty = createClient({ baseUrl: upstream.url, apiKey: API_KEY, timeoutMs: 100, retryBaseMs: 1 });
    try {
      upstream.answer(silence);
      expect((await failureOf(hasty.createSession(sessionRequest))).code).toBe('UPSTREAM_TIMEOUT');
      expect(upstream.requests).toHaveLength(2);
    } finally {
      await hasty.close();
    }
  });
});

describe('no answer', () => {
  it('slow headers: UPSTREAM_TIMEOUT, also after the read retries', async () => {
    const hasty = createClient({
      baseUrl: upstream.url,
      apiKey: API_KEY,
      timeoutMs: 100,
      retries: 1,
      retryBaseMs: 1,
    });
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
    const hasty = createClient({ baseUrl: upstream.url, apiKey: API_KEY, timeoutMs: 100, retries: 0 });
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
    const refused = createClient({
      baseUrl: await closedPortUrl(),
      apiKey: API_KEY,
      retryBaseMs: 1,
      retryMaxMs: 2,
    });
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
    await expect(client.createSession(sessionRequest, { signal: AbortSignal.abort() })).rejects.toMatchObject(
      {
        name: 'AbortError',
      },
    );
    expect(upstream.requests).toHaveLength(0);
  });
});

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
    const refused = createClient({ baseUrl: await closedPortUrl(), apiKey: API_KEY, retries: 0 });
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
        createClient(options);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toMatchObject({ code: 'INVALID_OPTIONS' });
      expectNoKey(thrown);
    }
  });
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
    ['dispatcher', { dispatcher: {} }],
  ])('a wrong %s throws INVALID_OPTIONS naming it', (name, change) => {
    const options = { baseUrl: 'https://idv.example.com', apiKey: API_KEY, ...change };
    let thrown: unknown;
    try {
      createClient(options as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(VerifyKitError);
    expect(thrown).toMatchObject({
      code: 'INVALID_OPTIONS',
      details: [expect.objectContaining({ path: name })],
    });
    expect((thrown as Error).message).toContain(name);
  });

  it('uses a dispatcher passed in, and close() leaves it open', async () => {
    const agent = new Agent({ keepAliveTimeout: 1_000 });
    try {
      const shared = createClient({ baseUrl: upstream.url, apiKey: API_KEY, dispatcher: agent });
      upstream.answer(json(200, { id: IDENTIFICATION_ID, status: 'APPROVED' }));
      await shared.getIdentification(IDENTIFICATION_ID);
      await shared.close();
      const again = createClient({ baseUrl: upstream.url, apiKey: API_KEY, dispatcher: agent });
      await expect(again.getIdentification(IDENTIFICATION_ID)).resolves.toMatchObject({ status: 'APPROVED' });
      expect(upstream.requests).toHaveLength(2);
    } finally {
      await agent.close();
    }
  });

  it('after close(), its own pool refuses new calls with a VerifyKitError', async () => {
    await client.close();
    expect((await failureOf(client.getIdentification(IDENTIFICATION_ID))).code).toBe('UPSTREAM_UNAVAILABLE');
    expect(upstream.requests).toHaveLength(0);
  });
});

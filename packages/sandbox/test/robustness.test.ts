import http from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, type Harness, harness } from './helpers.js';

let h: Harness;
let sessionId = '';
let identificationId = '';
beforeAll(async () => {
  h = await harness();
  const s = await h.createSession();
  sessionId = s.id;
  identificationId = s.identificationId;
});
afterAll(() => h.sandbox.close());

/** A raw request: any path bytes, any headers, any body (fetch would normalise some of them). */
function raw(method: string, path: string, headers: Record<string, string>, body?: Buffer) {
  const { port } = new URL(h.url);
  return new Promise<{ status: number; body: string; type: string }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          type: String(res.headers['content-type'] ?? ''),
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('no input of any shape gives a 5xx: paths and methods', () => {
  it.each([
    ['GET', '/%E0%A4%A'],
    ['GET', '/api/v1/identifications/%E0%A4%A'],
    ['POST', '/api/v1/identifications/%ZZ/verify'],
    ['GET', '/api/v1/verification-sessions/%/qr-code'],
    ['GET', '/public/verification-sessions/%C0%AF'],
    ['GET', '/sandbox/sessions/by-code/%FF'],
    ['GET', '/app/verification-session/%E0%A4%A'],
    ['DELETE', '/api/v1/identifications/x'],
    ['PUT', '/sandbox/outbox'],
    ['GET', '/api/v1/identifications/%00'],
  ])('%s %s -> 4xx', async (method, path) => {
    const res = await raw(method, path, { 'x-api-key': API_KEY });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.type).toMatch(/json|html/);
  });

  it('a 4000-character id -> 404', async () => {
    const res = await raw('GET', `/api/v1/identifications/${'a'.repeat(4000)}`, { 'x-api-key': API_KEY });
    expect(res.status).toBe(404);
  });
});

describe('no input of any shape gives a 5xx: bodies', () => {
  it.each([
    ['a huge body', 'application/json', Buffer.alloc(200 * 1024, 'a'), 413],
    ['a huge valid JSON', 'application/json', Buffer.from(JSON.stringify({ x: 'y'.repeat(100_000) })), 413],
    ['null', 'application/json', Buffer.from('null'), 400],
    ['a number', 'application/json', Buffer.from('12'), 400],
    ['an array', 'application/json', Buffer.from('[]'), 400],
    ['broken JSON', 'application/json', Buffer.from('{"a":'), 400],
    ['invalid UTF-8', 'application/json', Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), 400],
    ['latin1 charset', 'application/json; charset=latin1', Buffer.from('{}'), 415],
    ['form data', 'application/x-www-form-urlencoded', Buffer.from('a=b'), 415],
    ['no content type', '', Buffer.from('{}'), 415],
    ['a malformed content type parameter (read as JSON)', 'application/json; ;;', Buffer.from('{}'), 400],
  ] as const)('POST with %s', async (_name, type, body, status) => {
    const headers: Record<string, string> = { 'x-api-key': API_KEY };
    if (type) headers['content-type'] = type;
    const res = await raw('POST', '/api/v1/verification-sessions', headers, body);
    expect(res.status).toBe(status);
    expect(JSON.parse(res.body).error.code).toMatch(/^[A-Z_]+$/);
  });

  it('gzip bombs are bounded by the body limit', async () => {
    const { gzipSync } = await import('node:zlib');
    const bomb = gzipSync(Buffer.from(JSON.stringify({ workflowId: 'x'.repeat(5_000_000) })));
    const res = await raw(
      'POST',
      '/api/v1/verification-sessions',
      { 'x-api-key': API_KEY, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      bomb,
    );
    expect(res.status).toBe(413);
  });
});

/** The sandbox's routes, with the ids of a live session. */
function knownPaths() {
  return [
    '/api/v1/verification-sessions',
    `/api/v1/verification-sessions/${sessionId}/qr-code`,
    '/api/v1/verification-sessions//qr-code',
    `/api/v1/identifications/${identificationId}`,
    `/api/v1/identifications/${identificationId}/verify`,
    `/sandbox/sessions/${sessionId}`,
    `/sandbox/sessions/${sessionId}/otp`,
    `/sandbox/sessions/${sessionId}/otp/resend`,
    `/sandbox/sessions/${sessionId}/documents`,
    `/sandbox/identifications/${identificationId}/decision`,
    `/sandbox/identifications/${identificationId}/status`,
    '/sandbox/clock/advance',
    '/sandbox/outbox',
    `/public/verification-sessions/${sessionId}`,
    '/app/',
  ];
}

const jsonBody = fc.jsonValue({ maxDepth: 3 }).map((v) => Buffer.from(JSON.stringify(v)));

/** A body with the field names the routes read, holding valid and invalid values. */
const routeShapedBody = fc
  .record(
    {
      workflowId: fc.oneof(fc.constant('default'), fc.string()),
      locale: fc.oneof(fc.constantFrom('en', 'tr'), fc.string()),
      email: fc.oneof(fc.emailAddress(), fc.string()),
      phoneNumber: fc.string(),
      sendOTP: fc.oneof(fc.boolean(), fc.jsonValue()),
      duration: fc.oneof(fc.integer(), fc.double()),
      approvalCriteria: fc.array(
        fc.record(
          {
            type: fc.constantFrom('DOCUMENT_OWNER_NAME', 'DOCUMENT_COUNTRY', 'X'),
            condition: fc.constantFrom('EQUALS', 'CONTAINS', 'NOPE'),
            value: fc.string(),
            rejectIfNotMet: fc.boolean(),
            accentInsensitive: fc.boolean(),
          },
          { requiredKeys: [] },
        ),
      ),
      type: fc.constantFrom('I', 'P', 'DOCUMENT_TYPE', 'CONTACT_EMAIL', 'DOCUMENT_NUMBER'),
      value: fc.string(),
      code: fc.string(),
      status: fc.constantFrom('APPROVED', 'REJECTED', 'x'),
      ms: fc.oneof(fc.integer(), fc.double()),
      number: fc.string(),
      givenName: fc.string({ unit: 'binary' }),
      surname: fc.string(),
      country: fc.string({ maxLength: 4 }),
      scenario: fc.string(),
    },
    { requiredKeys: [] },
  )
  .map((v) => Buffer.from(JSON.stringify(v)));

const randomBytes = fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a));

/** Paths of broken percent-encodings, dot segments and stray delimiters. */
const weirdPath = fc
  .array(fc.constantFrom('a', '/', '%', 'E0', 'A4', '%2F', '..', '?', '#', ' '.replace(' ', '%20'), 'é'), {
    maxLength: 12,
  })
  .map((parts) => `/${parts.join('')}`.replace(/[^\x21-\x7e]/g, '%C3%A9'));

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'] as const;
const CONTENT_TYPES = [
  '',
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/merge-patch+json',
  '*/*',
  ';;;',
];

/** Sends one request (no body on GET or HEAD) and checks the answer is not a 5xx. */
async function expectNo5xx(method: string, path: string, type: string, body?: Buffer, key?: string) {
  const headers: Record<string, string> = {};
  if (type) headers['content-type'] = type;
  if (key !== undefined) headers['x-api-key'] = key;
  const sendBody = method === 'GET' || method === 'HEAD' ? undefined : body;
  const res = await raw(method, path, headers, sendBody);
  const sent = `${method} ${path} ${type} ${sendBody?.toString('utf8').slice(0, 200)}`;
  expect(res.status, sent).toBeLessThan(500);
}

describe('no input of any shape gives a 5xx: random requests', () => {
  it('property: random methods, paths, content types and bodies never give a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...METHODS),
        fc.oneof(fc.constantFrom(...knownPaths()), weirdPath),
        fc.constantFrom(...CONTENT_TYPES),
        fc.oneof(jsonBody, routeShapedBody, randomBytes, fc.constant(undefined)),
        fc.constantFrom(API_KEY, '', 'wrong', undefined),
        expectNo5xx,
      ),
      { numRuns: 150 },
    );
  });
});

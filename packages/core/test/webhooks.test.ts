import {
  VerifyKitError as ClientVerifyKitError,
  isVerifyKitError as clientIsVerifyKitError,
  generateWebhookSecret,
  verifyWebhook as nodeVerifyWebhook,
  signWebhook,
} from '@verify-kit/client';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { isVerifyKitError, VerifyKitError, verifyWebhook } from '../src/index.js';

// The vectors of the Node verifier's tests (packages/client/test/verify-webhook.test.ts), each run
// through core's verifier (Headers, crypto.subtle) and the client's (node:crypto): same answers.
const secret = generateWebhookSecret();
const otherSecret = generateWebhookSecret();
const id = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';
const body = JSON.stringify({
  type: 'identification.approved',
  timestamp: '2025-01-01T00:00:00.000Z',
  data: { verificationSessionId: 'a', identificationId: 'b', status: 'APPROVED', name: 'ŞEYMA IŞIK' },
});
const now = () => Math.floor(Date.now() / 1000);
const timestamp = 1_700_000_000;
const signature = signWebhook({ secret, id, timestamp, body });

type HeaderRecord = Record<string, string | string[]>;
const headersFor = (at: number, sig: string, messageId = id): HeaderRecord => ({
  'webhook-id': messageId,
  'webhook-timestamp': String(at),
  'webhook-signature': sig,
});

/** As a Fetch server hands them over: a repeated header appended, so read back joined with ", ". */
function toHeaders(record: HeaderRecord): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(record)) {
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

interface Vector {
  secret?: string | string[];
  headers?: HeaderRecord;
  body?: string | Uint8Array;
  now?: number;
  toleranceSeconds?: number;
}

/** The code core's verifier rejects with, or `ok:<id>:<timestamp>`. */
async function coreAnswer(vector: Vector): Promise<string> {
  const input = { secret, headers: headersFor(timestamp, signature), body, now: timestamp, ...vector };
  try {
    const result = await verifyWebhook({ ...input, headers: toHeaders(input.headers) });
    return `ok:${result.id}:${result.timestamp}`;
  } catch (error) {
    if (isVerifyKitError(error)) return error.code;
    throw error;
  }
}

function nodeAnswer(vector: Vector): string {
  const input = { secret, headers: headersFor(timestamp, signature), body, now: timestamp, ...vector };
  try {
    const result = nodeVerifyWebhook(input);
    return `ok:${result.id}:${result.timestamp}`;
  } catch (error) {
    if (clientIsVerifyKitError(error)) return error.code;
    throw error;
  }
}

const ok = `ok:${id}:${timestamp}`;
const old = signWebhook({ secret: otherSecret, id, timestamp, body });

const vectors: [name: string, vector: Vector, answer: string][] = [
  ['a valid signature', {}, ok],
  [
    'a Buffer body and upper-case or repeated header names',
    {
      body: Buffer.from(body),
      headers: {
        'Webhook-Id': id,
        'WEBHOOK-TIMESTAMP': String(timestamp),
        'webhook-signature': ['v1,bm90IGl0', signature],
      },
    },
    ok,
  ],
  [
    'rotation: several signatures, ours second',
    { headers: headersFor(timestamp, `${old} ${signature}`) },
    ok,
  ],
  [
    'rotation: several signatures, the other secret',
    { secret: otherSecret, headers: headersFor(timestamp, `${old} ${signature}`) },
    ok,
  ],
  ['rotation: several secrets', { secret: [otherSecret, secret] }, ok],
  ['rotation: the other secret alone', { secret: [otherSecret] }, 'WEBHOOK_SIGNATURE_INVALID'],
  ['a tampered body', { body: body.replace('APPROVED', 'REJECTED') }, 'WEBHOOK_SIGNATURE_INVALID'],
  ['a tampered id', { headers: headersFor(timestamp, signature, 'msg_other') }, 'WEBHOOK_SIGNATURE_INVALID'],
  [
    'a tampered timestamp',
    { headers: headersFor(timestamp + 1, signature), now: timestamp },
    'WEBHOOK_SIGNATURE_INVALID',
  ],
  ['a wrong secret', { secret: otherSecret }, 'WEBHOOK_SIGNATURE_INVALID'],
  [
    'a signature of another version',
    { headers: headersFor(timestamp, signature.replace('v1,', 'v2,')) },
    'WEBHOOK_SIGNATURE_INVALID',
  ],
  [
    'a truncated signature',
    { headers: headersFor(timestamp, signature.slice(0, -2)) },
    'WEBHOOK_SIGNATURE_INVALID',
  ],
  [
    'a signature with trailing bytes',
    { headers: headersFor(timestamp, `${signature}AA`) },
    'WEBHOOK_SIGNATURE_INVALID',
  ],
  ['garbage', { headers: headersFor(timestamp, 'v1,!!!') }, 'WEBHOOK_SIGNATURE_INVALID'],
  ['an empty v1 entry', { headers: headersFor(timestamp, 'v1,') }, 'WEBHOOK_SIGNATURE_INVALID'],
  ['301 s old', { now: timestamp + 301 }, 'WEBHOOK_TIMESTAMP_STALE'],
  ['301 s in the future', { now: timestamp - 301 }, 'WEBHOOK_TIMESTAMP_STALE'],
  ['stale whatever the signature', { now: timestamp + 301, secret: otherSecret }, 'WEBHOOK_TIMESTAMP_STALE'],
  ['exactly 300 s old', { now: timestamp + 300 }, ok],
  ['exactly 300 s in the future', { now: timestamp - 300 }, ok],
  [
    '11 s old with toleranceSeconds 10',
    { now: timestamp + 11, toleranceSeconds: 10 },
    'WEBHOOK_TIMESTAMP_STALE',
  ],
  [
    'no webhook-id',
    { headers: { 'webhook-timestamp': String(timestamp), 'webhook-signature': signature } },
    'WEBHOOK_HEADERS_MISSING',
  ],
  [
    'no webhook-timestamp',
    { headers: { 'webhook-id': id, 'webhook-signature': signature } },
    'WEBHOOK_HEADERS_MISSING',
  ],
  [
    'no webhook-signature',
    { headers: { 'webhook-id': id, 'webhook-timestamp': String(timestamp) } },
    'WEBHOOK_HEADERS_MISSING',
  ],
  ['no headers at all', { headers: {} }, 'WEBHOOK_HEADERS_MISSING'],
  ['an empty webhook-id', { headers: headersFor(timestamp, signature, '') }, 'WEBHOOK_HEADERS_MISSING'],
  [
    'a non-integer timestamp',
    { headers: { ...headersFor(timestamp, signature), 'webhook-timestamp': '1700000000.5' } },
    'WEBHOOK_HEADERS_MISSING',
  ],
  [
    'a non-numeric timestamp',
    { headers: { ...headersFor(timestamp, signature), 'webhook-timestamp': 'yesterday' } },
    'WEBHOOK_HEADERS_MISSING',
  ],
  [
    'a negative timestamp',
    { headers: { ...headersFor(timestamp, signature), 'webhook-timestamp': '-1700000000' } },
    'WEBHOOK_HEADERS_MISSING',
  ],
  [
    'a repeated webhook-id',
    { headers: { ...headersFor(timestamp, signature), 'webhook-id': [id, id] } },
    'WEBHOOK_HEADERS_MISSING',
  ],
  [
    'a repeated webhook-timestamp',
    {
      headers: {
        ...headersFor(timestamp, signature),
        'webhook-timestamp': [String(timestamp), String(timestamp)],
      },
    },
    'WEBHOOK_HEADERS_MISSING',
  ],
  ['an empty secret', { secret: '' }, 'INVALID_OPTIONS'],
  ['whsec_ alone', { secret: 'whsec_' }, 'INVALID_OPTIONS'],
  ['a secret not base64', { secret: 'whsec_not base64!' }, 'INVALID_OPTIONS'],
  ['a secret of 8 bytes', { secret: 'whsec_AAAAAAAAAAA=' }, 'INVALID_OPTIONS'],
  ['no secret', { secret: [] }, 'INVALID_OPTIONS'],
  ['a malformed secret beside a good one', { secret: [secret, 'whsec_'] }, 'INVALID_OPTIONS'],
  ['a raw base64 secret (no whsec_)', { secret: secret.slice('whsec_'.length) }, ok],
];
// Every single-character change of the signature's base64 (the last one touches padding and spare bits).
for (let index = 3; index < signature.length; index++) {
  const changed =
    signature.slice(0, index) + (signature[index] === 'A' ? 'B' : 'A') + signature.slice(index + 1);
  vectors.push([
    `signature character ${index} changed`,
    { headers: headersFor(timestamp, changed) },
    'WEBHOOK_SIGNATURE_INVALID',
  ]);
}

describe("verifyWebhook: the Node verifier's vectors, the same answers", () => {
  it.each(vectors)('%s', async (_name, vector, answer) => {
    expect(nodeAnswer(vector)).toBe(answer);
    expect(await coreAnswer(vector)).toBe(answer);
  });
});

describe('verifyWebhook: interop', () => {
  it('signed by the standardwebhooks package, with and without the whsec_ prefix', async () => {
    const at = now();
    const theirs = new Webhook(secret).sign(id, new Date(at * 1000), body);
    const headers = toHeaders(headersFor(at, theirs));
    expect(await verifyWebhook({ secret, headers, body })).toEqual({ id, timestamp: at });
    const raw = secret.slice('whsec_'.length);
    expect(await verifyWebhook({ secret: raw, headers, body })).toEqual({ id, timestamp: at });
    const fromRaw = new Webhook(raw).sign(id, new Date(at * 1000), body);
    expect(await verifyWebhook({ secret, headers: toHeaders(headersFor(at, fromRaw)), body })).toEqual({
      id,
      timestamp: at,
    });
  });

  it("signed by @verify-kit/client's signWebhook, on the real clock", async () => {
    const at = now();
    const headers = toHeaders(headersFor(at, signWebhook({ secret, id, timestamp: at, body })));
    expect(await verifyWebhook({ secret, headers, body: new TextEncoder().encode(body) })).toEqual({
      id,
      timestamp: at,
    });
    const stale = toHeaders(headersFor(timestamp, signature));
    await expect(verifyWebhook({ secret, headers: stale, body })).rejects.toMatchObject({
      code: 'WEBHOOK_TIMESTAMP_STALE',
    });
  });

  it('a body given as a view into a larger buffer is read from its own offset', async () => {
    const bytes = new TextEncoder().encode(`xxxx${body}yyyy`);
    const view = new Uint8Array(bytes.buffer, 4, bytes.length - 8);
    const headers = toHeaders(headersFor(timestamp, signature));
    expect(await verifyWebhook({ secret, headers, body: view, now: timestamp })).toEqual({ id, timestamp });
  });

  it("throws verify-kit's one VerifyKitError, @verify-kit/protocol's, which the client exports too", async () => {
    const error = await verifyWebhook({
      secret: otherSecret,
      headers: toHeaders(headersFor(timestamp, signature)),
      body,
      now: timestamp,
    }).catch((caught: unknown) => caught);
    expect(VerifyKitError).toBe(ClientVerifyKitError);
    expect(error).toBeInstanceOf(VerifyKitError);
    expect(error).toMatchObject({ name: 'VerifyKitError', code: 'WEBHOOK_SIGNATURE_INVALID' });
    expect(clientIsVerifyKitError(error, 'WEBHOOK_SIGNATURE_INVALID')).toBe(true);
    expect(isVerifyKitError(error, 'WEBHOOK_TIMESTAMP_STALE')).toBe(false);
  });

  it('many signature entries cost one HMAC of the body per secret (a large header is no amplifier)', async () => {
    const many = Array.from({ length: 200 }, () => old).join(' ');
    const headers = toHeaders(headersFor(timestamp, `${many} ${signature}`));
    expect(await verifyWebhook({ secret, headers, body, now: timestamp })).toEqual({ id, timestamp });
  });
});

import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signWebhook, VerifyKitError, verifyWebhook } from '../src/index.js';
import { body, codeOf, headersFor, id, now, otherSecret, secret } from './helpers/webhook-fixture.js';

const timestamp = 1_700_000_000;
const signature = signWebhook({ secret, id, timestamp, body });

describe('verifyWebhook: signatures', () => {
  it('accepts a Buffer body and upper-case or repeated header names', () => {
    const headers = {
      'Webhook-Id': id,
      'WEBHOOK-TIMESTAMP': String(timestamp),
      'webhook-signature': ['v1,bm90IGl0', signature],
    };
    expect(verifyWebhook({ secret, headers, body: Buffer.from(body), now: timestamp })).toEqual({
      id,
      timestamp,
    });
  });

  it('rotation: any one of several signatures passes', () => {
    const old = signWebhook({ secret: otherSecret, id, timestamp, body });
    const both = `${old} ${signature}`;
    expect(verifyWebhook({ secret, headers: headersFor(timestamp, both), body, now: timestamp }).id).toBe(id);
    expect(
      verifyWebhook({ secret: otherSecret, headers: headersFor(timestamp, both), body, now: timestamp }).id,
    ).toBe(id);
    const theirs = new Webhook(otherSecret).verify(
      body,
      headersFor(now(), signWebhook({ secret: otherSecret, id, timestamp: now(), body }) + ` ${signature}`),
    );
    expect(theirs).toEqual(JSON.parse(body));
  });

  it('rotation: any one of several secrets passes', () => {
    const headers = headersFor(timestamp, signature);
    expect(verifyWebhook({ secret: [otherSecret, secret], headers, body, now: timestamp }).id).toBe(id);
    expect(codeOf(() => verifyWebhook({ secret: [otherSecret], headers, body, now: timestamp }))).toBe(
      'WEBHOOK_SIGNATURE_INVALID',
    );
  });

  it.each([
    ['a tampered body', { body: body.replace('APPROVED', 'REJECTED') }],
    ['a tampered id', { headers: headersFor(timestamp, signature, 'msg_other') }],
    ['a tampered timestamp', { headers: headersFor(timestamp + 1, signature) }],
    ['a wrong secret', { secret: otherSecret }],
    ['a signature of another version', { headers: headersFor(timestamp, signature.replace('v1,', 'v2,')) }],
    ['a truncated signature', { headers: headersFor(timestamp, signature.slice(0, -2)) }],
    ['a signature with trailing bytes', { headers: headersFor(timestamp, `${signature}AA`) }],
    ['garbage', { headers: headersFor(timestamp, 'v1,!!!') }],
  ])('rejects %s with WEBHOOK_SIGNATURE_INVALID', (_name, change) => {
    const input = { secret, headers: headersFor(timestamp, signature), body, now: timestamp, ...change };
    expect(codeOf(() => verifyWebhook(input))).toBe('WEBHOOK_SIGNATURE_INVALID');
  });
});

describe('verifyWebhook: the timestamp', () => {
  it.each([
    ['301 s old', timestamp + 301],
    ['301 s in the future', timestamp - 301],
  ])('rejects a timestamp %s with WEBHOOK_TIMESTAMP_STALE, whatever the signature', (_name, at) => {
    expect(
      codeOf(() => verifyWebhook({ secret, headers: headersFor(timestamp, signature), body, now: at })),
    ).toBe('WEBHOOK_TIMESTAMP_STALE');
  });

  it('accepts a timestamp exactly 300 s away both ways, and honours toleranceSeconds', () => {
    const headers = headersFor(timestamp, signature);
    expect(verifyWebhook({ secret, headers, body, now: timestamp + 300 }).id).toBe(id);
    expect(verifyWebhook({ secret, headers, body, now: timestamp - 300 }).id).toBe(id);
    expect(
      codeOf(() => verifyWebhook({ secret, headers, body, now: timestamp + 11, toleranceSeconds: 10 })),
    ).toBe('WEBHOOK_TIMESTAMP_STALE');
  });

  it('the default clock is the real one: a signature made now passes, one from 2023 is stale', () => {
    const fresh = now();
    const fresh_headers = headersFor(fresh, signWebhook({ secret, id, timestamp: fresh, body }));
    expect(verifyWebhook({ secret, headers: fresh_headers, body }).timestamp).toBe(fresh);
    expect(codeOf(() => verifyWebhook({ secret, headers: headersFor(timestamp, signature), body }))).toBe(
      'WEBHOOK_TIMESTAMP_STALE',
    );
  });
});

describe('verifyWebhook: headers and secret', () => {
  it.each([
    ['webhook-id', { 'webhook-timestamp': String(timestamp), 'webhook-signature': signature }],
    ['webhook-timestamp', { 'webhook-id': id, 'webhook-signature': signature }],
    ['webhook-signature', { 'webhook-id': id, 'webhook-timestamp': String(timestamp) }],
    ['all headers', {}],
    ['an empty webhook-id', { ...headersFor(timestamp, signature, '') }],
    ['a non-integer timestamp', { ...headersFor(timestamp, signature), 'webhook-timestamp': '1700000000.5' }],
    ['a non-numeric timestamp', { ...headersFor(timestamp, signature), 'webhook-timestamp': 'yesterday' }],
    ['a negative timestamp', { ...headersFor(timestamp, signature), 'webhook-timestamp': '-1700000000' }],
    ['a repeated webhook-id', { ...headersFor(timestamp, signature), 'webhook-id': [id, id] }],
  ])('rejects missing or malformed %s with WEBHOOK_HEADERS_MISSING', (_name, headers) => {
    expect(codeOf(() => verifyWebhook({ secret, headers, body, now: timestamp }))).toBe(
      'WEBHOOK_HEADERS_MISSING',
    );
  });

  it('a malformed secret is a configuration error (INVALID_OPTIONS), not a verification result', () => {
    const headers = headersFor(timestamp, signature);
    for (const bad of ['', 'whsec_', 'whsec_not base64!', []]) {
      expect(codeOf(() => verifyWebhook({ secret: bad, headers, body, now: timestamp }))).toBe(
        'INVALID_OPTIONS',
      );
    }
    expect(() => signWebhook({ secret: 'whsec_', id, timestamp, body })).toThrow(VerifyKitError);
    expect(() => signWebhook({ secret, id, timestamp: 1.5, body })).toThrow(VerifyKitError);
  });
});

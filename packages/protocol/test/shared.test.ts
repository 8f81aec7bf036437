import { describe, expect, it } from 'vitest';
import * as errors from '../src/errors.js';
import { isVerifyKitError, VerifyKitError } from '../src/errors.js';
import * as webhooks from '../src/webhooks.js';
import {
  MIN_WEBHOOK_SECRET_BYTES,
  webhookEnvelope,
  webhookSecretKey,
  webhookSecretProblem,
} from '../src/webhooks.js';

// The two entries beside the protocol's (package.json's ./errors and ./webhooks): what the
// client and core share, kept out of the main entry (the widget's, and @verify-kit/express/protocol's).
describe('@verify-kit/protocol/errors and /webhooks', () => {
  it('export the one error class and the one reading of a webhook secret and its headers', () => {
    expect(Object.keys(errors).sort()).toEqual(['VerifyKitError', 'isVerifyKitError']);
    expect(Object.keys(webhooks).sort()).toEqual([
      'DEFAULT_WEBHOOK_TOLERANCE_SECONDS',
      'MIN_WEBHOOK_SECRET_BYTES',
      'webhookEnvelope',
      'webhookSecretKey',
      'webhookSecretProblem',
    ]);
  });

  it('reads a delivery’s headers: present, a timestamp in Unix seconds within the tolerance, the v1 signatures', () => {
    const headers = { id: 'msg_1', timestamp: '1000', signature: 'v1,AAA, v2,BBB v1,CCC' };
    expect(webhookEnvelope(headers, { now: 1200 })).toEqual({
      id: 'msg_1',
      timestamp: 1000,
      signatures: ['AAA', 'CCC'],
    });
    const code = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return (error as { code?: string }).code;
      }
      return 'accepted';
    };
    expect(code(() => webhookEnvelope({ ...headers, id: undefined }))).toBe('WEBHOOK_HEADERS_MISSING');
    expect(code(() => webhookEnvelope({ ...headers, timestamp: '1e3' }))).toBe('WEBHOOK_HEADERS_MISSING');
    expect(code(() => webhookEnvelope(headers, { now: 1301 }))).toBe('WEBHOOK_TIMESTAMP_STALE');
    expect(code(() => webhookEnvelope(headers, { now: 699 }))).toBe('WEBHOOK_TIMESTAMP_STALE');
    expect(code(() => webhookEnvelope(headers, { now: 1000, toleranceSeconds: 0 }))).toBe('accepted');
  });

  it('VerifyKitError carries its code and the brand another copy of the class is recognised by', () => {
    const error = new VerifyKitError('UPSTREAM_TIMEOUT', 'slow', { upstreamStatus: 504, retryAfterMs: 10 });
    expect(error).toMatchObject({ name: 'VerifyKitError', code: 'UPSTREAM_TIMEOUT', upstreamStatus: 504 });
    expect((error as unknown as Record<symbol, unknown>)[Symbol.for('verify-kit.error')]).toBe(true);
    expect(isVerifyKitError(error, 'UPSTREAM_TIMEOUT')).toBe(true);
    expect(isVerifyKitError(new Error('x'))).toBe(false);
  });
});

describe('webhookSecretKey', () => {
  const bytes = Uint8Array.from({ length: 24 }, (_, i) => i * 7);
  const base64 = btoa(String.fromCharCode(...bytes));

  it('reads whsec_<base64>, the prefix optional, as the Standard Webhooks reference does', () => {
    expect(webhookSecretKey(`whsec_${base64}`)).toEqual(bytes);
    expect(webhookSecretKey(base64)).toEqual(bytes);
    // Unused trailing bits set, as Node's Buffer and the reference library accept.
    expect(webhookSecretKey('whsec_AAAAAAAAAAAAAAAAAAAAAB==')).toEqual(new Uint8Array(16));
  });

  it(`refuses what is not base64, and keys under ${MIN_WEBHOOK_SECRET_BYTES} bytes`, () => {
    for (const secret of [undefined, 42, '', 'whsec_', `whsec_${base64.slice(1)}`, `whsec_ ${base64}`]) {
      expect(webhookSecretKey(secret)).toBeUndefined();
    }
    expect(webhookSecretKey(btoa('x'.repeat(MIN_WEBHOOK_SECRET_BYTES - 1)))).toBeUndefined();
    expect(webhookSecretKey(btoa('x'.repeat(MIN_WEBHOOK_SECRET_BYTES)))).toHaveLength(
      MIN_WEBHOOK_SECRET_BYTES,
    );
  });

  it('says why a value is not a secret', () => {
    expect(webhookSecretProblem(42)).toBe('must be a string');
    expect(webhookSecretProblem('nope')).toMatch(/^must look like whsec_<base64 of at least 16 bytes>/);
  });
});

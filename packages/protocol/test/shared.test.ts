import { describe, expect, it } from 'vitest';
import * as errors from '../src/errors.js';
import { isVerifyKitError, VerifyKitError } from '../src/errors.js';
import * as webhookSecret from '../src/webhook-secret.js';
import { MIN_WEBHOOK_SECRET_BYTES, webhookSecretKey, webhookSecretProblem } from '../src/webhook-secret.js';

// The two entries beside the protocol's (package.json's ./errors and ./webhook-secret): what the
// client and core share, kept out of the main entry (the widget's, and @verify-kit/express/protocol's).
describe('@verify-kit/protocol/errors and /webhook-secret', () => {
  it('export the one error class and the one reading of a webhook secret', () => {
    expect(Object.keys(errors).sort()).toEqual(['VerifyKitError', 'isVerifyKitError']);
    expect(Object.keys(webhookSecret).sort()).toEqual([
      'MIN_WEBHOOK_SECRET_BYTES',
      'webhookSecretKey',
      'webhookSecretProblem',
    ]);
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

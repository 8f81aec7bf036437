import { describe, expect, it } from 'vitest';
import { isVerifyKitError, VerifyKitError } from '../src/index.js';

describe('VerifyKitError', () => {
  it('keeps what the service answered apart from what verify-kit answers', () => {
    const upstream = new VerifyKitError('UPSTREAM_UNAVAILABLE', 'down', { upstreamStatus: 503 });
    expect([upstream.upstreamStatus, upstream.httpStatus]).toEqual([503, undefined]);
    const own = new VerifyKitError('NOT_IN_THIS_COUNTRY', 'no', { httpStatus: 403 });
    expect([own.upstreamStatus, own.httpStatus, own.status]).toEqual([undefined, 403, 403]);
    // The deprecated option still reads as the upstream's status.
    expect(new VerifyKitError('X', 'x', { status: 502 }).upstreamStatus).toBe(502);
  });

  it('is recognised across two copies of the package (a brand, not instanceof alone)', () => {
    const fromAnotherCopy = Object.assign(new Error('refused'), {
      name: 'VerifyKitError',
      code: 'NOT_APPROVED',
      [Symbol.for('verify-kit.error')]: true,
    });
    expect(fromAnotherCopy instanceof VerifyKitError).toBe(false);
    expect(isVerifyKitError(fromAnotherCopy)).toBe(true);
    expect(isVerifyKitError(fromAnotherCopy, 'NOT_APPROVED')).toBe(true);
    expect(isVerifyKitError(fromAnotherCopy, 'KIT_CLOSED')).toBe(false);
    expect(isVerifyKitError(Object.assign(new Error('x'), { code: 'NOT_APPROVED' }))).toBe(false);
    expect(isVerifyKitError(null)).toBe(false);
  });
});

// What the anonymous visitor's cookie carries without a shared store (fetch/sealed-state.ts): the
// binding, the visit and the service's last decision, sealed within its size cap, and nothing a
// browser could make or change.
import { expect, test } from 'vitest';
import { parseSealed, type Sealed, toSealable } from '../src/fetch/sealed-state.js';
import { MAX_SEALED_COOKIE_BYTES, sealCookie, unsealCookie } from '../src/index.js';

const SECRET = 'sealed-state-test-secret-0123456789abcdefgh';
const NOW = Date.parse('2026-11-29T08:00:00.000Z');
const id = (n: number) => `${n}b7e2c4a-91f3-4d5e-8a6b-0c1d2e3f4a5b`.slice(0, 36);
// Links as long as a real service's (its base URL in both), not the sandbox's short ones.
const BASE = 'https://identity-verification.example-service.com/api';

const full: Sealed = {
  s: 'kq3V9xZ1mR4tY7uW2oP5aB',
  binding: {
    identificationId: id(1),
    verificationSessionId: id(2),
    deepLink: `idv://app-url/${BASE}/verification-session/${id(2)}`,
    sessionCode: 'K7M2P9QX',
    sessionPageLink: `${BASE}/public/verification-sessions/${id(2)}`,
    expiresAt: '2026-11-29T08:30:00.000Z',
    approvedAt: '2026-11-29T08:05:12.345Z',
    holder: 'Jb1x2QeR7tYu8iOp9aSd0f',
  },
  decision: { status: 'APPROVED', at: NOW - 1234, source: 'read' },
  v: { identificationId: id(1), accountId: null, seenAt: NOW - 99 },
  c: id(3),
};

test('everything a visitor carries round-trips, and seals well under the cap (room for longer links)', async () => {
  const sealed = await sealCookie(toSealable(full), SECRET);
  expect(sealed.length).toBeLessThan(MAX_SEALED_COOKIE_BYTES - 300);
  expect(parseSealed(await unsealCookie(sealed, SECRET), NOW)).toEqual(full);
});

test("a visit of another identification than the binding's, and an account's, keep what they say", () => {
  const visit = { identificationId: id(4), accountId: 'account-7', seenAt: NOW };
  expect(parseSealed(toSealable({ ...full, v: visit }), NOW).v).toEqual(visit);
});

test('a binding past its retention, or malformed, is no binding (and takes its decision with it)', () => {
  const old = { ...full.binding!, expiresAt: '2024-01-01T00:00:00.000Z', approvedAt: undefined };
  const { binding, decision } = parseSealed(toSealable({ ...full, binding: old }), NOW);
  expect([binding, decision]).toEqual([undefined, undefined]);
  const sealable = toSealable(full) as { b: Record<string, unknown> };
  for (const broken of [
    { ...sealable.b, e: 'soon' },
    { ...sealable.b, i: '' },
    { ...sealable.b, l: 7 },
    'b',
  ]) {
    expect(parseSealed({ ...sealable, b: broken }, NOW).binding).toBeUndefined();
  }
});

test('a carried decision never says more than a status and a time: no retired marker, no odd values', () => {
  const sealable = toSealable(full);
  for (const d of [
    { s: 'APPROVED', t: Number.MAX_SAFE_INTEGER },
    { s: 'APPROVED', t: 1.5 },
    { s: '', t: NOW },
    { s: 'APPROVED' },
    null,
  ]) {
    expect(parseSealed({ ...sealable, d }, NOW).decision).toBeUndefined();
  }
});

test('a marker written before the short names is still read', () => {
  const v = { identificationId: id(1), accountId: null, seenAt: NOW };
  expect(parseSealed({ ...toSealable(full), v }, NOW).v).toEqual(v);
});

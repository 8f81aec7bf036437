import { expect, test } from 'vitest';
import { parseClientAddress } from '../src/client-address.js';

// Next.js gives the kit headers and no socket: the client's address comes from a header only when
// the integrator says which one their platform writes.
const from = (headers: Record<string, string>) =>
  new Request('http://shop.test/identity/session', { headers });

test('no option: no address (one shared bucket, never no limit)', () => {
  expect(parseClientAddress(undefined)).toBeUndefined();
});

test("'x-forwarded-for': the rightmost entry, the one the nearest proxy (or next start itself) wrote", () => {
  const of = parseClientAddress('x-forwarded-for')!;
  expect(of(from({ 'x-forwarded-for': '6.6.6.6, 203.0.113.7' }))).toBe('203.0.113.7');
  expect(of(from({ 'x-forwarded-for': '2001:db8::1' }))).toBe('2001:db8::1');
  expect(of(from({}))).toBeUndefined();
});

test('{ xForwardedForHops: n }: the n-th entry from the right; fewer entries, or not an address: none', () => {
  const of = parseClientAddress({ xForwardedForHops: 2 })!;
  expect(of(from({ 'x-forwarded-for': '6.6.6.6, 203.0.113.7, 10.0.0.2' }))).toBe('203.0.113.7');
  expect(of(from({ 'x-forwarded-for': '10.0.0.2' }))).toBeUndefined();
  expect(of(from({ 'x-forwarded-for': 'unknown, 10.0.0.2' }))).toBeUndefined();
});

test("'x-real-ip': Vercel's header, an address only", () => {
  const of = parseClientAddress('x-real-ip')!;
  expect(of(from({ 'x-real-ip': ' 198.51.100.4 ' }))).toBe('198.51.100.4');
  expect(of(from({ 'x-real-ip': 'evil' }))).toBeUndefined();
  expect(of(from({ 'x-forwarded-for': '198.51.100.4' }))).toBeUndefined();
});

test('a function of the Request is yours', () => {
  const of = parseClientAddress((request: Request) => request.headers.get('cf-connecting-ip') ?? undefined)!;
  expect(of(from({ 'cf-connecting-ip': '192.0.2.1' }))).toBe('192.0.2.1');
});

test('anything else throws INVALID_OPTIONS naming the choices', () => {
  for (const wrong of [
    'x-client-ip',
    { xForwardedForHops: 0 },
    { xForwardedForHops: 1.5 },
    { hops: 1 },
    3,
    null,
  ]) {
    expect(() => parseClientAddress(wrong), JSON.stringify(wrong)).toThrow(/clientAddress must be/);
  }
});

import { expect, test } from 'vitest';
import {
  NO_CLIENT_ADDRESS_WARNING,
  PROXY_HEADER_WARNING,
  parseClientAddress as parse,
} from '../src/client-address.js';

/** The reader of an option on no recognised platform (the tests' machine, whatever it is). */
const parseClientAddress = (option: unknown) => parse(option, undefined).addressOf;

// Next.js gives the kit headers and no socket: the client's address comes from a header only when
// the integrator says which one their platform writes.
const from = (headers: Record<string, string>) =>
  new Request('http://shop.test/identity/session', { headers });

test('no option: no address (one shared bucket, never no limit), and a warning naming what to do', () => {
  expect(parse(undefined, undefined)).toEqual({ addressOf: undefined, warning: NO_CLIENT_ADDRESS_WARNING });
  expect(NO_CLIENT_ADDRESS_WARNING).toMatch(/xForwardedForHops: 1/);
});

test('no option on a recognised platform: the header its edge overwrites', () => {
  const request = from({
    'x-real-ip': '198.51.100.4',
    'fly-client-ip': '192.0.2.9',
    'x-forwarded-for': '6.6.6.6',
  });
  expect(parse(undefined, 'vercel').addressOf?.(request)).toBe('198.51.100.4');
  expect(parse(undefined, 'fly').addressOf?.(request)).toBe('192.0.2.9');
  expect(parse(undefined, 'vercel').warning).toBeUndefined();
});

test("a platform's preset: its header; named where that platform is not recognised, a warning", () => {
  const request = from({ 'cf-connecting-ip': '192.0.2.1', 'x-nf-client-connection-ip': '192.0.2.2' });
  expect(parse('cloudflare', undefined).warning).toBeUndefined();
  expect(parse('cloudflare', undefined).addressOf?.(request)).toBe('192.0.2.1');
  expect(parse('netlify', 'netlify').warning).toBeUndefined();
  expect(parse('netlify', undefined).warning).toMatch(/does not run on netlify/);
  expect(parse('netlify', undefined).addressOf?.(request)).toBe('192.0.2.2');
});

test("a header only a proxy of yours makes trustworthy is said once in production (next start keeps the client's own)", () => {
  expect(parse('x-forwarded-for', undefined).warning).toBe(PROXY_HEADER_WARNING);
  expect(parse({ xForwardedForHops: 2 }, undefined).warning).toBe(PROXY_HEADER_WARNING);
  expect(parse('x-real-ip', undefined).warning).toBe(PROXY_HEADER_WARNING);
  expect(parse('x-real-ip', 'vercel').warning).toBeUndefined();
  expect(parse(() => undefined, undefined).warning).toBeUndefined();
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

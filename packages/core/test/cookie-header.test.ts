import { describe, expect, it } from 'vitest';
import {
  cookieName,
  isVerifyKitError,
  readCookie,
  serializeClearCookie,
  serializeCookie,
} from '../src/index.js';

const https = { secure: true };
const http = { secure: false };

describe('serializeCookie', () => {
  it('over https: __Host- prefix, Path=/, HttpOnly, Secure, SameSite=Lax, no Domain', () => {
    expect(serializeCookie('vk', 'abc-_1', https)).toBe(
      '__Host-vk=abc-_1; Path=/; HttpOnly; Secure; SameSite=Lax',
    );
  });

  it('over http (localhost): the plain name and no Secure, which browsers refuse there', () => {
    expect(serializeCookie('vk', 'abc', http)).toBe('vk=abc; Path=/; HttpOnly; SameSite=Lax');
  });

  it('a lifetime in seconds, as Max-Age, up to the 400 days browsers keep', () => {
    expect(serializeCookie('vk', 'abc', { secure: true, maxAge: 3600 })).toBe(
      '__Host-vk=abc; Path=/; Max-Age=3600; HttpOnly; Secure; SameSite=Lax',
    );
    expect(serializeCookie('vk', 'abc', { secure: false, maxAge: 34_560_000 })).toBe(
      'vk=abc; Path=/; Max-Age=34560000; HttpOnly; SameSite=Lax',
    );
  });

  it('never a Domain attribute (a __Host- cookie with one is refused by browsers)', () => {
    expect(serializeCookie('vk', 'abc', https)).not.toMatch(/domain/i);
    expect(serializeClearCookie('vk', https)).not.toMatch(/domain/i);
  });

  it.each([
    ['a name with a space', () => serializeCookie('v k', 'abc', https)],
    ['a name with =', () => serializeCookie('v=k', 'abc', https)],
    ['a name already prefixed', () => serializeCookie('__Host-vk', 'abc', https)],
    ['a name with __Secure-', () => serializeCookie('__secure-vk', 'abc', http)],
    ['a value with ;', () => serializeCookie('vk', 'a;b', https)],
    ['a value with a space', () => serializeCookie('vk', 'a b', https)],
    ['a value with a comma', () => serializeCookie('vk', 'a,b', https)],
    ['a fractional maxAge', () => serializeCookie('vk', 'abc', { secure: true, maxAge: 1.5 })],
    ['a negative maxAge', () => serializeCookie('vk', 'abc', { secure: true, maxAge: -1 })],
    ['a maxAge over 400 days', () => serializeCookie('vk', 'abc', { secure: true, maxAge: 34_560_001 })],
  ])('refuses %s with INVALID_OPTIONS', (_name, run) => {
    expect(run).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    try {
      run();
    } catch (error) {
      expect(isVerifyKitError(error, 'INVALID_OPTIONS')).toBe(true);
    }
  });
});

describe('serializeClearCookie', () => {
  it('expires the cookie with the attributes it was written with (a __Host- one needs them to be removed)', () => {
    expect(serializeClearCookie('vk', https)).toBe(
      '__Host-vk=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax',
    );
    expect(serializeClearCookie('vk', http)).toBe(
      'vk=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax',
    );
  });
});

describe('readCookie', () => {
  const headers = (cookie: string) => new Headers({ cookie });

  it('reads the name writing would use: __Host- over https, plain over http', () => {
    const both = headers('vk=plain; __Host-vk=hosted; other=1');
    expect(readCookie(both, 'vk', https)).toBe('hosted');
    expect(readCookie(both, 'vk', http)).toBe('plain');
    expect(cookieName('vk', https)).toBe('__Host-vk');
  });

  it('over https, a plain cookie of the same name (set by http or a subdomain) is not read', () => {
    expect(readCookie(headers('vk=planted'), 'vk', https)).toBeUndefined();
  });

  it('undefined without a Cookie header or without the cookie', () => {
    expect(readCookie(new Headers(), 'vk', https)).toBeUndefined();
    expect(readCookie(headers('a=1; b=2'), 'vk', http)).toBeUndefined();
    expect(readCookie(headers('vkx=1; xvk=2; vk'), 'vk', http)).toBeUndefined();
  });

  it('exact names, values with =, white space around pairs, quoted values, the first of several', () => {
    expect(readCookie(headers('VK=upper;vk=a=b=='), 'vk', http)).toBe('a=b==');
    expect(readCookie(headers('  vk  =  spaced  ; z=1'), 'vk', http)).toBe('spaced');
    expect(readCookie(headers('vk="quoted"'), 'vk', http)).toBe('quoted');
    expect(readCookie(headers('vk=first; vk=second'), 'vk', http)).toBe('first');
    expect(readCookie(headers('vk='), 'vk', http)).toBe('');
  });

  it('round trip: what serializeCookie writes, a browser sends back, readCookie reads', () => {
    const setCookie = serializeCookie('vk', 'AbC-_09', https);
    const sent = setCookie.split(';')[0]!;
    expect(readCookie(headers(`theme=dark; ${sent}`), 'vk', https)).toBe('AbC-_09');
  });
});

import { describe, expect, it } from 'vitest';
import { sameOriginPath } from '../src/same-origin-path.js';

describe('sameOriginPath', () => {
  it.each(['/', '/account', '/a/b?c=d&e=%2F%2Fx', '/reports#top', '/%2F%2Fevil.example', '/a//b'])(
    'keeps %s',
    (url) => {
      expect(sameOriginPath(url)).toBe(url);
    },
  );

  it.each([
    '',
    'account',
    '//evil.example',
    '//evil.example/path',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\nSet-Cookie: x=y',
    '/a\u0000b',
    '/a\u007fb',
    'http://evil.example/',
    'https://evil.example',
    'javascript:alert(1)',
    ' /account',
    `/${'a'.repeat(3000)}`,
  ])('refuses %j', (url) => {
    expect(sameOriginPath(url)).toBeUndefined();
  });
});

import { VerifyKitError } from '@verify-kit/protocol/errors';

/*
 * The kit's own cookies on the wire (RFC 6265bis). Over https a cookie is `__Host-<name>`: `Secure`,
 * `Path=/` and no `Domain`, so neither a sibling subdomain nor plain http can set or shadow it. Over
 * http (localhost while developing) it is `<name>` without `Secure`, which browsers would refuse
 * there. Always `HttpOnly` and `SameSite=Lax`. Reading looks only for the name writing would use.
 */

export interface CookieOptions {
  /** The request came over https (the shell knows: its URL, or a trusted proxy's header). */
  secure: boolean;
}

export interface SetCookieOptions extends CookieOptions {
  /** Lifetime in whole seconds, at most 400 days; left out, a session cookie (gone when the browser closes). */
  maxAge?: number;
}

const HOST_PREFIX = '__Host-';
/** RFC 9110 token: a cookie-name. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** RFC 6265 cookie-octets: no white space, DQUOTE, comma, semicolon or backslash. */
const COOKIE_OCTETS = /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/;
const EPOCH = 'Thu, 01 Jan 1970 00:00:00 GMT';
/** RFC 6265bis: browsers cap a cookie's lifetime at 400 days; asking more is a mistake to catch early. */
const MAX_AGE_LIMIT = 400 * 24 * 60 * 60;

/** The name on the wire: `__Host-<name>` over https, `<name>` over http. */
export function cookieName(name: string, { secure }: CookieOptions): string {
  if (!TOKEN.test(name) || /^__(host|secure)-/i.test(name)) {
    throw new VerifyKitError(
      'INVALID_OPTIONS',
      `cookie name ${JSON.stringify(name)} must be a token without a __Host- or __Secure- prefix (added over https)`,
    );
  }
  return secure ? HOST_PREFIX + name : name;
}

/** A `Set-Cookie` value: `<name>=<value>; Path=/; [Max-Age=…; ]HttpOnly; [Secure; ]SameSite=Lax`. */
export function serializeCookie(name: string, value: string, options: SetCookieOptions): string {
  if (!COOKIE_OCTETS.test(value)) {
    throw new VerifyKitError('INVALID_OPTIONS', 'a cookie value must be cookie-octets (e.g. base64url)');
  }
  const { maxAge } = options;
  if (maxAge !== undefined && !(Number.isSafeInteger(maxAge) && maxAge >= 0 && maxAge <= MAX_AGE_LIMIT)) {
    throw new VerifyKitError(
      'INVALID_OPTIONS',
      `maxAge must be whole seconds from 0 to ${MAX_AGE_LIMIT} (400 days, what browsers keep at most)`,
    );
  }
  const lifetime = maxAge === undefined ? '' : `; Max-Age=${maxAge}`;
  return `${cookieName(name, options)}=${value}; Path=/${lifetime}${attributes(options)}`;
}

/** The `Set-Cookie` value that removes the cookie `serializeCookie` wrote with the same options. */
export function serializeClearCookie(name: string, options: CookieOptions): string {
  return `${cookieName(name, options)}=; Path=/; Max-Age=0; Expires=${EPOCH}${attributes(options)}`;
}

function attributes({ secure }: CookieOptions): string {
  return `; HttpOnly${secure ? '; Secure' : ''}; SameSite=Lax`;
}

/**
 * The value of the cookie `name` (prefixed as `serializeCookie` would) in the request's `Cookie`
 * header, or undefined. The first one wins when a browser sends several.
 */
export function readCookie(headers: Headers, name: string, options: CookieOptions): string | undefined {
  return cookieIn(headers.get('cookie'), name, options);
}

/** readCookie's answer from the `Cookie` header's value (null or undefined: none). */
export function cookieIn(
  header: string | null | undefined,
  name: string,
  options: CookieOptions,
): string | undefined {
  const wanted = cookieName(name, options);
  if (header === null || header === undefined) return undefined;
  for (const pair of header.split(';')) {
    const equals = pair.indexOf('=');
    if (equals === -1 || pair.slice(0, equals).trim() !== wanted) continue;
    const value = pair.slice(equals + 1).trim();
    return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
  }
  return undefined;
}

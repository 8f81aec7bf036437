// The kit's Set-Cookie lines (core writes them: `<name>=<value>; Path=/; [Max-Age=…; ][Expires=…; ]
// HttpOnly; [Secure; ]SameSite=Lax`) as Next.js takes cookies: on the request the proxy passes on,
// and through `cookies().set` in server code.

interface ParsedCookie {
  name: string;
  value: string;
  path: string;
  maxAge?: number;
  expires?: Date;
  httpOnly: boolean;
  secure: boolean;
  sameSite?: 'lax' | 'strict' | 'none';
}

/** One Set-Cookie line as `cookies().set` takes it; undefined for a line without `name=`. */
export function parseSetCookie(line: string): ParsedCookie | undefined {
  const [pair = '', ...attributes] = line.split(';');
  const equals = pair.indexOf('=');
  if (equals <= 0) return undefined;
  const cookie: ParsedCookie = {
    name: pair.slice(0, equals).trim(),
    value: pair.slice(equals + 1).trim(),
    path: '/',
    httpOnly: false,
    secure: false,
  };
  for (const attribute of attributes) {
    const [rawKey = '', ...rest] = attribute.split('=');
    const key = rawKey.trim().toLowerCase();
    const value = rest.join('=').trim();
    if (key === 'path') cookie.path = value;
    else if (key === 'max-age') cookie.maxAge = Number(value);
    else if (key === 'expires') cookie.expires = new Date(value);
    else if (key === 'httponly') cookie.httpOnly = true;
    else if (key === 'secure') cookie.secure = true;
    else if (key === 'samesite') {
      const sameSite = value.toLowerCase();
      if (sameSite === 'lax' || sameSite === 'strict' || sameSite === 'none') cookie.sameSite = sameSite;
    }
  }
  return cookie;
}

/**
 * The request's headers with its Cookie header as the browser will send it once it has the answer's
 * Set-Cookie lines: what the proxy passes on, so the page or route handler after it (`statusOf()`)
 * sees the visitor the gate just moved (approval moves the binding to a new sealed cookie).
 */
export function withCookies(headers: Headers, setCookies: readonly string[]): Headers {
  const jar = new Map<string, string>();
  for (const part of (headers.get('cookie') ?? '').split(';')) {
    const equals = part.indexOf('=');
    if (equals > 0) jar.set(part.slice(0, equals).trim(), part.slice(equals + 1).trim());
  }
  for (const line of setCookies) {
    const cookie = parseSetCookie(line);
    if (cookie === undefined) continue;
    if (cookie.value === '' || cookie.maxAge === 0) jar.delete(cookie.name);
    else jar.set(cookie.name, cookie.value);
  }
  const forwarded = new Headers(headers);
  const header = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  if (header === '') forwarded.delete('cookie');
  else forwarded.set('cookie', header);
  return forwarded;
}

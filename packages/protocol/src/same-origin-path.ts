function hasUnsafeChar(url: string): boolean {
  for (let i = 0; i < url.length; i++) {
    const code = url.charCodeAt(i);
    if (code < 0x20 || code === 0x7f || code === 0x5c /* backslash */) return true;
  }
  return false;
}

/**
 * `url` when it is a path of this origin (so a redirect to it cannot leave the site), else undefined.
 * Refuses absolute URLs, `//host`, backslashes (`/\host`), control characters (browsers strip tabs
 * and new lines, which would turn `/\t/host` into `//host`) and very long values. The gate's
 * `returnTo` and any page that redirects after sign-in use this one function.
 */
export function sameOriginPath(url: string): string | undefined {
  if (typeof url !== 'string' || url.length === 0 || url.length > 2048) return undefined;
  if (!url.startsWith('/') || url.startsWith('//')) return undefined;
  if (hasUnsafeChar(url)) return undefined;
  const base = 'http://verify-kit.invalid';
  if (!URL.canParse(url, base) || new URL(url, base).origin !== base) return undefined;
  return url;
}

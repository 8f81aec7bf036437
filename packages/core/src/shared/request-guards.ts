export { sameOriginPath } from '@verify-kit/protocol';

/** A request's header by lower-case name, whatever the server (undefined when absent). */
export type HeaderOf = (name: string) => string | undefined;

/**
 * CSRF refusal for state-changing calls: Fetch Metadata first; browsers without it are judged by
 * Origin against Host (and X-Forwarded-Host only where the app trusts its proxy); a request with
 * neither header is not from a browser page and passes.
 */
export function isCrossSite(header: HeaderOf, trustForwardedHost = false): boolean {
  const site = header('sec-fetch-site');
  if (site !== undefined) return site !== 'same-origin' && site !== 'none';
  const origin = header('origin');
  if (origin === undefined) return false;
  if (!URL.canParse(origin)) return true;
  const originHost = new URL(origin).host;
  const hosts = [header('host')];
  if (trustForwardedHost) hosts.push(header('x-forwarded-host')?.split(',')[0]?.trim());
  return !hosts.some((host) => host !== undefined && host.toLowerCase() === originHost.toLowerCase());
}

/** A browser navigation (not fetch/XHR): GET or HEAD that asks for HTML. */
export function isNavigation(method: string, header: HeaderOf): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const mode = header('sec-fetch-mode');
  if (mode !== undefined && mode !== 'navigate') return false;
  return /\btext\/html\b/i.test(header('accept') ?? '');
}

/** `application/json` or `application/<x>+json`, any parameters. */
export function isJsonContentType(header: HeaderOf): boolean {
  const type = (header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

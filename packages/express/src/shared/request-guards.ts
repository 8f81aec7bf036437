export { sameOriginPath } from '@verify-kit/protocol';

import type { Request } from 'express';

/**
 * CSRF refusal for state-changing calls: Fetch Metadata first; browsers without it are judged by
 * Origin against Host; a request with neither header is not from a browser page and passes.
 */
export function isCrossSite(req: Request): boolean {
  const site = req.get('sec-fetch-site');
  if (site !== undefined) return site !== 'same-origin' && site !== 'none';
  const origin = req.get('origin');
  if (origin === undefined) return false;
  if (!URL.canParse(origin)) return true;
  const originHost = new URL(origin).host;
  const hosts = [req.get('host')];
  if (req.app?.get('trust proxy')) hosts.push(req.get('x-forwarded-host')?.split(',')[0]?.trim());
  return !hosts.some((host) => host !== undefined && host.toLowerCase() === originHost.toLowerCase());
}

/** A browser navigation (not fetch/XHR): GET or HEAD that asks for HTML. */
export function isNavigation(req: Request): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const mode = req.get('sec-fetch-mode');
  if (mode !== undefined && mode !== 'navigate') return false;
  return /\btext\/html\b/i.test(req.get('accept') ?? '');
}

/** `application/json` or `application/<x>+json`, any parameters. */
export function isJsonContentType(req: Request): boolean {
  const type = (req.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/** The query parameters as the client sent them (independent of the app's query parser). */
export function queryOf(req: Request): URLSearchParams {
  const raw = req.originalUrl ?? req.url ?? '';
  const at = raw.indexOf('?');
  return new URLSearchParams(at === -1 ? '' : raw.slice(at + 1));
}

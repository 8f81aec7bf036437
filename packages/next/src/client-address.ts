import { VerifyKitError } from '@verify-kit/core';
import { isIPv4, isIPv6 } from '@verify-kit/core/internal/shared/ip-address';
import { envVar } from '@verify-kit/core/internal/wiring/platform';

/**
 * Where the client's address (for the kit's limits) comes from. Next.js gives a handler no socket,
 * only headers, and a header is the client's to write unless the platform or a proxy you run
 * overwrites it: so the kit reads one only when told which, or when it recognises the platform.
 * - a platform, whose edge overwrites its header: `'vercel'` (`x-real-ip`), `'cloudflare'`
 *   (`cf-connecting-ip`), `'fly'` (`fly-client-ip`), `'netlify'` (`x-nf-client-connection-ip`).
 *   Left out, the kit recognises Vercel, Fly.io and Netlify by their environment and reads theirs.
 * - `{ xForwardedForHops: n }`: `n` proxies of yours in front append to `X-Forwarded-For`; the address
 *   is the n-th entry from the right (the one your outermost proxy saw).
 * - `'x-forwarded-for'`: `{ xForwardedForHops: 1 }`. `next start` alone keeps an `X-Forwarded-For`
 *   the client sent: without a proxy of yours in front, a client chooses its own address.
 * - `'x-real-ip'`: a proxy of yours that sets `X-Real-IP` (nginx's `proxy_set_header`), as Vercel does.
 * - a function of the request: yours.
 * Without any, every client counts in one shared bucket (never no limit), with a warning in production.
 */
export type ClientAddress =
  | 'vercel'
  | 'cloudflare'
  | 'fly'
  | 'netlify'
  | 'x-forwarded-for'
  | 'x-real-ip'
  | { xForwardedForHops: number }
  | ((request: Request) => string | undefined);

type AddressOf = (request: Request) => string | undefined;

/** Each platform's header, written by its edge over anything the client sent. */
const PLATFORM_HEADERS = {
  vercel: 'x-real-ip',
  cloudflare: 'cf-connecting-ip',
  fly: 'fly-client-ip',
  netlify: 'x-nf-client-connection-ip',
} as const;
type Platform = keyof typeof PLATFORM_HEADERS;

const invalid = () =>
  new VerifyKitError(
    'INVALID_OPTIONS',
    "createVerifyKit: clientAddress must be 'vercel', 'cloudflare', 'fly', 'netlify', 'x-forwarded-for', 'x-real-ip', { xForwardedForHops: n } (n a whole number from 1 to 32) or a function (request) => string | undefined",
  );

/** An IP address as written in a header (no port, no brackets), else undefined. */
function ipOf(text: string | null | undefined): string | undefined {
  const value = text?.trim();
  if (value === undefined || value === '') return undefined;
  return isIPv4(value) || isIPv6(value) ? value : undefined;
}

const headerAddress =
  (name: string): AddressOf =>
  (request) =>
    ipOf(request.headers.get(name));

function forwardedFor(hops: number): AddressOf {
  return (request) => {
    const entries = (request.headers.get('x-forwarded-for') ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
    // Fewer entries than proxies: the request did not come through them all. Nothing to trust.
    return ipOf(entries[entries.length - hops]);
  };
}

/** The platform this app runs on, recognised by the environment its platform sets. */
export function recognisedPlatform(): Platform | undefined {
  if (envVar('VERCEL') === '1') return 'vercel';
  if (envVar('FLY_APP_NAME') !== undefined) return 'fly';
  if (envVar('NETLIFY') === 'true') return 'netlify';
  return undefined;
}

/** How the kit reads the client's address, and what it says once at startup in production. */
export interface ResolvedClientAddress {
  addressOf: AddressOf | undefined;
  /** Said once in production: a setting whose header no recognised platform guarantees. */
  warning?: string;
}

/** The option, checked once: a function from a request to its client's address (or none). */
export function parseClientAddress(option: unknown, platform = recognisedPlatform()): ResolvedClientAddress {
  if (option === undefined) {
    if (platform !== undefined) return { addressOf: headerAddress(PLATFORM_HEADERS[platform]) };
    return { addressOf: undefined, warning: NO_CLIENT_ADDRESS_WARNING };
  }
  if (typeof option === 'function') return { addressOf: option as AddressOf };
  if (typeof option === 'string' && Object.hasOwn(PLATFORM_HEADERS, option)) {
    const named = option as Platform;
    const addressOf = headerAddress(PLATFORM_HEADERS[named]);
    if (platform === named || named === 'cloudflare') return { addressOf };
    return { addressOf, warning: notOnPlatform(named) };
  }
  if (option === 'x-forwarded-for') return { addressOf: forwardedFor(1), warning: PROXY_HEADER_WARNING };
  if (option === 'x-real-ip') {
    const addressOf = headerAddress('x-real-ip');
    return platform === 'vercel' ? { addressOf } : { addressOf, warning: PROXY_HEADER_WARNING };
  }
  if (typeof option === 'object' && option !== null && Object.keys(option).join() === 'xForwardedForHops') {
    const { xForwardedForHops: hops } = option as { xForwardedForHops: unknown };
    if (Number.isInteger(hops) && (hops as number) >= 1 && (hops as number) <= 32) {
      return { addressOf: forwardedFor(hops as number), warning: PROXY_HEADER_WARNING };
    }
  }
  throw invalid();
}

const HOW =
  "Vercel, Fly.io and Netlify are recognised by their environment; elsewhere say which header your platform's edge overwrites ('cloudflare' behind Cloudflare), " +
  'or put a proxy of your own in front of `next start` (nginx, Caddy, HAProxy) that overwrites X-Forwarded-For, and pass { xForwardedForHops: 1 }.';

export const NO_CLIENT_ADDRESS_WARNING =
  'createVerifyKit: the client address is unknown, so every client counts in one shared bucket for the limits ' +
  `(Next.js gives the kit headers, no socket): one client can spend everybody's share. ${HOW}`;

export const PROXY_HEADER_WARNING =
  'createVerifyKit: clientAddress reads a header that only a proxy of yours makes trustworthy: `next start` alone passes on ' +
  'an X-Forwarded-For (or X-Real-IP) the client wrote itself, and a client then chooses the address its limits count. ' +
  'Keep it only behind a proxy that overwrites (or appends to) that header.';

function notOnPlatform(platform: Platform): string {
  return `createVerifyKit: clientAddress '${platform}' reads ${PLATFORM_HEADERS[platform]}, but this does not run on ${platform} (its environment is not set): there, the header is the client's to write. ${HOW}`;
}

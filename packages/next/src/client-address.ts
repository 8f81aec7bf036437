import { VerifyKitError } from '@verify-kit/core';
import { isIPv4, isIPv6 } from '@verify-kit/core/internal/shared/ip-address';

/**
 * Where the client's address (for the kit's limits) comes from. Next.js gives a handler no socket,
 * only headers, and a header is the client's to write unless a proxy you run overwrites it: so the
 * kit reads one only when told which.
 * - `{ xForwardedForHops: n }`: `n` proxies of yours append to `X-Forwarded-For`; the address is the
 *   n-th entry from the right (the one your outermost proxy saw).
 * - `'x-forwarded-for'`: the same with one proxy (`{ xForwardedForHops: 1 }`): its rightmost entry.
 *   `next start` alone writes the socket's address there when the request has none.
 * - `'x-real-ip'`: Vercel's header (Vercel overwrites what a client sent).
 * - a function of the request: yours (e.g. `cf-connecting-ip` behind Cloudflare).
 * Without it every client counts in one shared bucket (never no limit), with a warning in production.
 */
export type ClientAddress =
  | 'x-forwarded-for'
  | 'x-real-ip'
  | { xForwardedForHops: number }
  | ((request: Request) => string | undefined);

const invalid = () =>
  new VerifyKitError(
    'INVALID_OPTIONS',
    "createVerifyKit: clientAddress must be 'x-forwarded-for', 'x-real-ip', { xForwardedForHops: n } (n a whole number from 1 to 32) or a function (request) => string | undefined",
  );

/** An IP address as written in a header (no port, no brackets), else undefined. */
function ipOf(text: string | undefined): string | undefined {
  const value = text?.trim();
  if (value === undefined || value === '') return undefined;
  return isIPv4(value) || isIPv6(value) ? value : undefined;
}

function forwardedFor(hops: number) {
  return (request: Request): string | undefined => {
    const entries = (request.headers.get('x-forwarded-for') ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
    // Fewer entries than proxies: the request did not come through them all. Nothing to trust.
    return ipOf(entries[entries.length - hops]);
  };
}

/** The option, checked once: a function from a request to its client's address (or undefined). */
export function parseClientAddress(option: unknown): ((request: Request) => string | undefined) | undefined {
  if (option === undefined) return undefined;
  if (typeof option === 'function') return option as (request: Request) => string | undefined;
  if (option === 'x-forwarded-for') return forwardedFor(1);
  if (option === 'x-real-ip') return (request) => ipOf(request.headers.get('x-real-ip') ?? undefined);
  if (typeof option === 'object' && option !== null && Object.keys(option).join() === 'xForwardedForHops') {
    const { xForwardedForHops: hops } = option as { xForwardedForHops: unknown };
    if (Number.isInteger(hops) && (hops as number) >= 1 && (hops as number) <= 32) {
      return forwardedFor(hops as number);
    }
  }
  throw invalid();
}

export const NO_CLIENT_ADDRESS_WARNING =
  'createVerifyKit: no clientAddress option, so every client counts in one shared bucket for the limits ' +
  "(Next.js gives the kit headers, no socket). Say which header your platform sets: clientAddress: 'x-real-ip' " +
  "on Vercel, 'x-forwarded-for' or { xForwardedForHops: n } behind your own proxies, or a function (request) => address.";

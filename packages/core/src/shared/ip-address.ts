// A client's address as the kit counts it, on Web APIs only (no node:net): the core engine shares it.

/** One part of a dotted IPv4 address: 0-255 in decimal, no leading zero. */
const OCTET = /^(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])$/;
/** One group of an IPv6 address: 1 to 4 hex digits. */
const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;
/** What an IPv6 zone id (`fe80::1%eth0`) may hold, as node:net accepts it. */
const ZONE_ID = /^[0-9a-zA-Z.:-]+$/;

/** A dotted IPv4 address, as strict as node:net's `isIPv4`: four parts 0-255, no leading zero. */
export function isIPv4(text: string): boolean {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((part) => OCTET.test(part));
}

/**
 * An IPv6 address, as strict as node:net's `isIPv6`: eight groups of 1-4 hex digits, or fewer with
 * one `::` standing for at least one group of zeros; the last two groups may be written as a dotted
 * IPv4 address (`::ffff:1.2.3.4`); an optional zone id follows a `%`.
 */
export function isIPv6(text: string): boolean {
  const percent = text.indexOf('%');
  if (percent !== -1 && !ZONE_ID.test(text.slice(percent + 1))) return false;
  const halves = (percent === -1 ? text : text.slice(0, percent)).split('::');
  if (halves.length > 2) return false;
  const [left = '', right] = halves;
  if (right === undefined) return groupCount(left, true) === 8;
  // A dotted IPv4 tail is only ever last: on the right of `::` when there is one.
  const [before, after] = [groupCount(left, false), groupCount(right, true)];
  return before !== -1 && after !== -1 && before + after <= 7;
}

/** How many 16-bit groups `part` (groups joined by `:`) holds, or -1 when it is not such a part. */
function groupCount(part: string, ipv4Tail: boolean): number {
  if (part === '') return 0;
  const groups = part.split(':');
  const last = groups[groups.length - 1] ?? '';
  const tailIsIPv4 = ipv4Tail && last.includes('.');
  if (tailIsIPv4 && !isIPv4(last)) return -1;
  const hex = tailIsIPv4 ? groups.slice(0, -1) : groups;
  if (!hex.every((group) => HEX_GROUP.test(group))) return -1;
  return hex.length + (tailIsIPv4 ? 2 : 0);
}

/**
 * The address a request is counted under: an IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) as its
 * IPv4 address; any other IPv6 address as its /64 (`2001:db8:1:2::/64`), since one subscriber's line
 * or host holds a whole /64 and could rotate through it; anything else as it is. A missing or empty
 * address is `unknown`: such requests share one bucket, never none.
 */
export function normalizeAddress(address: string | undefined): string {
  if (typeof address !== 'string' || address.length === 0) return 'unknown';
  if (address.startsWith('::ffff:') && isIPv4(address.slice(7))) return address.slice(7);
  return isIPv6(address) ? prefix64(address) : address;
}

/** `2001:db8:1:2::/64` for any address in that /64 (a valid IPv6 address, zone id dropped). */
function prefix64(address: string): string {
  const [head = '', tail] = (address.split('%')[0] ?? '').split('::');
  const groupsOf = (part: string) =>
    part === '' ? [] : part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g]));
  const left = groupsOf(head);
  const right = tail === undefined ? [] : groupsOf(tail);
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

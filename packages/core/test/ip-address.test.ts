import * as net from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isIPv4, isIPv6, normalizeAddress } from '../src/shared/ip-address.js';

// The address helpers of the rate limits, without node:net (they move to the runtime-neutral core):
// their validators must read an address exactly as node:net's do, and the /64 stay what it was.

/** Valid and invalid addresses, each judged by node:net itself below. */
const ADDRESSES = [
  // IPv4
  '1.2.3.4',
  '0.0.0.0',
  '255.255.255.255',
  '127.0.0.1',
  '1.2.3',
  '1.2.3.4.5',
  '01.2.3.4',
  '1.2.3.04',
  '256.1.1.1',
  '1.2.3.4 ',
  ' 1.2.3.4',
  '1..2.3',
  '1.2.3.',
  '+1.2.3.4',
  '1.2.3.4%eth0',
  '1e1.2.3.4',
  '０.1.2.3',
  // IPv6
  '::',
  '::1',
  '1::',
  '2001:db8::1',
  '2001:DB8::1',
  '2001:0db8:0000:0000:0000:ff00:0042:8329',
  '1:2:3:4:5:6:7:8',
  '1:2:3:4:5:6:7::',
  '::1:2:3:4:5:6:7',
  '1:2:3:4:5:6:7:8::',
  '::1:2:3:4:5:6:7:8',
  '1:2:3:4:5:6:7',
  '1:2:3:4:5:6:7:8:9',
  '1::2::3',
  ':::',
  ':1::',
  '1::2:',
  ':1:2:3:4:5:6:7:8',
  '1:2:3:4:5:6:7:8:',
  '12345::',
  'g::1',
  '::ffff:1.2.3.4',
  '::FFFF:1.2.3.4',
  '::ffff:1.2.3',
  '::ffff:01.2.3.4',
  '::ffff:256.2.3.4',
  '::1.2.3.4',
  '1.2.3.4::',
  '1:2:3:4:5:6:1.2.3.4',
  '1:2:3:4:5:6:7:1.2.3.4',
  '1:2:3:4:5::1.2.3.4',
  '1:2:3:4:5:6::1.2.3.4',
  '1::1.2.3.4:5',
  '2001:db8:1:2::1.2.3.4',
  'fe80::1%eth0',
  'fe80::1%25',
  'fe80::1%en0.1:x-y',
  'fe80::1%',
  'fe80::1%eth0%1',
  'fe80::1%eth 0',
  '%eth0',
  '[::1]',
  '::1 ',
  '',
  'unknown',
  'localhost',
];

describe('isIPv4 and isIPv6, without node:net', () => {
  it.each(ADDRESSES)('read %j as node:net does', (address) => {
    expect([isIPv4(address), isIPv6(address)]).toEqual([net.isIPv4(address), net.isIPv6(address)]);
  });

  it('the table holds both kinds, valid and invalid', () => {
    const kinds = new Set(ADDRESSES.map((address) => `${net.isIPv4(address)}/${net.isIPv6(address)}`));
    expect([...kinds].sort()).toEqual(['false/false', 'false/true', 'true/false']);
  });

  it('agree with node:net on strings made of the pieces of addresses', () => {
    const piece = fc.constantFrom(
      ...['0', '1', '9', '01', '25', '255', '256', '999', 'a', 'F', 'ffff', 'fFfF', '12345', 'g'],
      ...[':', ':', '::', '.', '.', '%', 'eth0', '-', ' ', '1.2.3.4', '::ffff:', '%en0'],
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (pieces) => {
        const address = pieces.join('');
        expect([isIPv4(address), isIPv6(address)]).toEqual([net.isIPv4(address), net.isIPv6(address)]);
      }),
      { numRuns: 20_000 },
    );
  });
});

describe('normalizeAddress', () => {
  it.each(ADDRESSES)('counts %j by what node:net reads in it', (address) => {
    const expected =
      address === ''
        ? 'unknown'
        : address.startsWith('::ffff:') && net.isIPv4(address.slice(7))
          ? address.slice(7)
          : net.isIPv6(address)
            ? expect.stringMatching(/^[0-9a-f]{1,4}(:[0-9a-f]{1,4}){3}::\/64$/)
            : address;
    expect(normalizeAddress(address)).toEqual(expected);
  });

  it('a missing address counts as unknown', () => {
    expect(normalizeAddress(undefined)).toBe('unknown');
    expect(normalizeAddress('')).toBe('unknown');
  });

  it('an IPv6 address counts as its /64, as the rate limits counted it before', () => {
    // Each expected value is what addressOf answered with node:net (before this module).
    expect(
      Object.fromEntries(
        [
          '2001:db8::1',
          '2001:DB8:0001:0002:0003:4:5:6',
          '2001:0db8:85a3:0000:0000:8a2e:0370:7334',
          'fe80::1%eth0',
          '::',
          '::1',
          '1::',
          '1:2:3:4:5:6:7::',
          '::1:2:3:4:5:6:7',
          '2001:db8:1:2::1.2.3.4',
          '::FFFF:1.2.3.4',
          '::ffff:01.2.3.4',
          '::ffff:1.2.3',
        ].map((address) => [address, normalizeAddress(address)]),
      ),
    ).toEqual({
      '2001:db8::1': '2001:db8:0:0::/64',
      '2001:DB8:0001:0002:0003:4:5:6': '2001:db8:1:2::/64',
      '2001:0db8:85a3:0000:0000:8a2e:0370:7334': '2001:db8:85a3:0::/64',
      'fe80::1%eth0': 'fe80:0:0:0::/64',
      '::': '0:0:0:0::/64',
      '::1': '0:0:0:0::/64',
      '1::': '1:0:0:0::/64',
      '1:2:3:4:5:6:7::': '1:2:3:4::/64',
      '::1:2:3:4:5:6:7': '0:1:2:3::/64',
      '2001:db8:1:2::1.2.3.4': '2001:db8:1:2::/64',
      // Only the lower-case prefix is unwrapped (as before): this one is an IPv6 address like any other.
      '::FFFF:1.2.3.4': '0:0:0:0::/64',
      // Not an address: counted as it is.
      '::ffff:01.2.3.4': '::ffff:01.2.3.4',
      '::ffff:1.2.3': '::ffff:1.2.3',
    });
  });

  it('an IPv4 address, mapped or not, counts as itself', () => {
    expect(normalizeAddress('::ffff:1.2.3.4')).toBe('1.2.3.4');
    expect(normalizeAddress('1.2.3.4')).toBe('1.2.3.4');
    expect(normalizeAddress('01.2.3.4')).toBe('01.2.3.4');
  });
});

import { isIPv4, isIPv6 } from 'node:net';

/**
 * Why an address is no place for a crawler of the public web to connect to: the special-purpose
 * ranges of the IANA IPv4 and IPv6 registries (RFC 6890 and its updates).
 */
export type AddressClass =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'multicast'
  | 'documentation'
  | 'benchmark'
  | 'reserved';

type Range = readonly [network: bigint, prefix: number, kind: AddressClass];

const v4 = (text: string, prefix: number, kind: AddressClass): Range => [ipv4Value(text), prefix, kind];
const v6 = (text: string, prefix: number, kind: AddressClass): Range => [ipv6Value(text), prefix, kind];

const IPV4_RANGES: readonly Range[] = [
  v4('0.0.0.0', 8, 'unspecified'), // "this network", RFC 791
  v4('10.0.0.0', 8, 'private'), // RFC 1918
  v4('100.64.0.0', 10, 'cgnat'), // RFC 6598
  v4('127.0.0.0', 8, 'loopback'),
  v4('169.254.0.0', 16, 'link-local'), // RFC 3927; 169.254.169.254 is the cloud metadata service
  v4('172.16.0.0', 12, 'private'),
  v4('192.0.0.0', 24, 'reserved'), // IETF protocol assignments, RFC 6890
  v4('192.0.2.0', 24, 'documentation'), // TEST-NET-1, RFC 5737
  v4('192.88.99.0', 24, 'reserved'), // 6to4 relay anycast, RFC 7526
  v4('192.168.0.0', 16, 'private'),
  v4('198.18.0.0', 15, 'benchmark'), // RFC 2544
  v4('198.51.100.0', 24, 'documentation'), // TEST-NET-2
  v4('203.0.113.0', 24, 'documentation'), // TEST-NET-3
  v4('224.0.0.0', 4, 'multicast'),
  v4('240.0.0.0', 4, 'reserved'), // RFC 1112, with the broadcast address 255.255.255.255
];

/** Ranges inside 2000::/3, the only global unicast space; everything outside it is listed or reserved. */
const IPV6_RANGES: readonly Range[] = [
  v6('::', 128, 'unspecified'),
  v6('::1', 128, 'loopback'),
  v6('fc00::', 7, 'private'), // unique local, RFC 4193
  v6('fe80::', 10, 'link-local'),
  v6('ff00::', 8, 'multicast'),
  v6('2001:db8::', 32, 'documentation'), // RFC 3849
  v6('3fff::', 20, 'documentation'), // RFC 9637
  v6('2001:2::', 48, 'benchmark'), // RFC 5180
  v6('2001::', 23, 'reserved'), // IETF protocol assignments (Teredo, ORCHID...), RFC 2928
];

/** IPv6 prefixes that carry an IPv4 address in their low bits, with the shift that brings it down. */
const EMBEDDING: readonly (readonly [network: bigint, prefix: number, shift: bigint])[] = [
  [ipv6Value('::ffff:0:0'), 96, 0n], // IPv4-mapped, RFC 4291
  [ipv6Value('64:ff9b::'), 96, 0n], // NAT64 well-known prefix, RFC 6052
  [ipv6Value('2002::'), 16, 80n], // 6to4, RFC 3056: 2002:AABB:CCDD::/48
];

const GLOBAL_UNICAST = ipv6Value('2000::');

/**
 * The special-purpose class of an IP address, or undefined for a public one (or for text that is no
 * address). IPv6 forms that carry an IPv4 address (mapped, NAT64, 6to4) are judged by that address.
 *
 * @example
 * addressClass('169.254.169.254') //=> 'link-local'
 * addressClass('::ffff:10.0.0.5') //=> 'private'
 * addressClass('93.184.215.14') //=> undefined
 */
export function addressClass(address: string): AddressClass | undefined {
  const text = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIPv4(text)) return lookUp(IPV4_RANGES, ipv4Value(text), 32);
  if (!isIPv6(text)) return undefined;
  const value = ipv6Value(text);
  for (const [network, prefix, shift] of EMBEDDING) {
    if (inRange(value, network, prefix, 128)) return lookUp(IPV4_RANGES, (value >> shift) & 0xffff_ffffn, 32);
  }
  const listed = lookUp(IPV6_RANGES, value, 128);
  if (listed !== undefined) return listed;
  return inRange(value, GLOBAL_UNICAST, 3, 128) ? undefined : 'reserved';
}

/**
 * Whether an IP address lies in a CIDR range (`10.0.0.0/8`, `fd00::/8`); false for anything that
 * is not an address of the range's family.
 *
 * @example
 * inCidr('10.1.2.3', '10.0.0.0', 8) //=> true
 */
export function inCidr(address: string, network: string, prefix: number): boolean {
  const text = address.replace(/^\[|\]$/g, '');
  if (isIPv4(text) && isIPv4(network)) return prefix >= 0 && prefix <= 32 && inRange(ipv4Value(text), ipv4Value(network), prefix, 32);
  if (isIPv6(text) && isIPv6(network)) return prefix >= 0 && prefix <= 128 && inRange(ipv6Value(text), ipv6Value(network), prefix, 128);
  return false;
}

function lookUp(ranges: readonly Range[], value: bigint, bits: number): AddressClass | undefined {
  for (const [network, prefix, kind] of ranges) if (inRange(value, network, prefix, bits)) return kind;
  return undefined;
}

function inRange(value: bigint, network: bigint, prefix: number, bits: number): boolean {
  const shift = BigInt(bits - prefix);
  return value >> shift === network >> shift;
}

function ipv4Value(text: string): bigint {
  return text.split('.').reduce((n, octet) => (n << 8n) | BigInt(Number(octet)), 0n);
}

/** The 128-bit value of an IPv6 address in any textual form (`::`, a trailing dotted quad). */
function ipv6Value(text: string): bigint {
  let groups = text;
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const n = Number(ipv4Value(quad[0]));
    groups = `${text.slice(0, quad.index)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head = '', tail] = groups.split('::');
  const words = (part: string): string[] => (part === '' ? [] : part.split(':'));
  const left = words(head);
  const right = tail === undefined ? [] : words(tail);
  const all = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return all.reduce((n, word) => (n << 16n) | BigInt(parseInt(word, 16)), 0n);
}

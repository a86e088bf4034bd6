import { isIP } from 'node:net';

/**
 * What kind of address an IP is, for the SSRF guard of server-side fetches (URL uploads).
 * - `public`: anything not below.
 * - `loopback` (127/8, ::1), `private` (10/8, 172.16/12, 192.168/16, fc00::/7, fec0::/10), `cgnat` (100.64/10),
 *   `link_local` (169.254/16, fe80::/10): refused unless `ALLOW_PRIVATE_URLS=1`.
 * - `metadata` (169.254.169.254, AWS's fd00:ec2::254, Alibaba's 100.100.100.200): cloud instance credentials;
 *   refused always.
 * - `multicast` (224/4, ff00::/8), `unspecified` (0/8, ::; Linux connects 0.0.0.0 to the local host), `reserved`
 *   (240/4 with the broadcast address): never a web server; refused always.
 * IPv6 forms that carry an IPv4 address (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::/96, 6to4
 * 2002::/16) are judged by that IPv4 address.
 */
export type AddressKind =
  | 'public'
  | 'loopback'
  | 'private'
  | 'cgnat'
  | 'link_local'
  | 'metadata'
  | 'multicast'
  | 'unspecified'
  | 'reserved';

/** Kinds refused even with `ALLOW_PRIVATE_URLS=1`. */
const ALWAYS_REFUSED: ReadonlySet<AddressKind> = new Set(['metadata', 'multicast', 'unspecified', 'reserved']);

export function isAddressAllowed(kind: AddressKind, allowPrivate: boolean): boolean {
  if (kind === 'public') return true;
  if (ALWAYS_REFUSED.has(kind)) return false;
  return allowPrivate;
}

const METADATA_V4 = new Set(['169.254.169.254', '100.100.100.200']);

function ipv4Number(address: string): number {
  return address.split('.').reduce((value, part) => value * 256 + Number(part), 0);
}

const inV4 = (value: number, base: string, bits: number) => {
  const size = 2 ** (32 - bits);
  const start = ipv4Number(base);
  return value >= start && value < start + size;
};

export function classifyIpv4(address: string): AddressKind {
  if (METADATA_V4.has(address)) return 'metadata';
  const value = ipv4Number(address);
  if (inV4(value, '0.0.0.0', 8)) return 'unspecified';
  if (inV4(value, '127.0.0.0', 8)) return 'loopback';
  if (inV4(value, '10.0.0.0', 8) || inV4(value, '172.16.0.0', 12) || inV4(value, '192.168.0.0', 16)) return 'private';
  if (inV4(value, '100.64.0.0', 10)) return 'cgnat';
  if (inV4(value, '169.254.0.0', 16)) return 'link_local';
  if (inV4(value, '224.0.0.0', 4)) return 'multicast';
  if (inV4(value, '240.0.0.0', 4)) return 'reserved';
  return 'public';
}

/** The eight 16-bit groups of an IPv6 address (with `::` expanded and a dotted IPv4 tail converted). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().split('%')[0] ?? '';
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const v4 = ipv4Number(dotted[1]);
    text = `${text.slice(0, -dotted[1].length)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const front = parse(head);
  if (tail === undefined) return front;
  const back = parse(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

const v4From = (high: number, low: number) => [high >>> 8, high & 0xff, low >>> 8, low & 0xff].join('.');

export function classifyIpv6(address: string): AddressKind {
  const g = ipv6Groups(address);
  if (g.length !== 8 || g.some((group) => !Number.isInteger(group) || group < 0 || group > 0xffff)) return 'reserved';
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const zeroHead = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (zeroHead && g5 === 0 && g6 === 0 && g7 === 0) return 'unspecified';
  if (zeroHead && g5 === 0 && g6 === 0 && g7 === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d) and the old IPv4-compatible form (::a.b.c.d).
  if (zeroHead && (g5 === 0xffff || g5 === 0)) return classifyIpv4(v4From(g6, g7));
  // NAT64 (64:ff9b::/96) reaches the embedded IPv4 address.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return classifyIpv4(v4From(g6, g7));
  // 6to4 (2002:aabb:ccdd::/48) routes to the IPv4 address in the second and third groups.
  if (g0 === 0x2002) return classifyIpv4(v4From(g1, g2));
  if (g0 === 0xfd00 && g1 === 0x0ec2 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0 && g6 === 0 && g7 === 0x254) return 'metadata';
  if ((g0 & 0xfe00) === 0xfc00 || (g0 & 0xffc0) === 0xfec0) return 'private';
  if ((g0 & 0xffc0) === 0xfe80) return 'link_local';
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  return 'public';
}

/** The kind of an IP address in text form; anything that is not an IP address is `reserved` (refused). */
export function classifyAddress(address: string): AddressKind {
  const bare = address.replace(/^\[|\]$/g, '');
  const version = isIP(bare.split('%')[0] ?? '');
  if (version === 4) return classifyIpv4(bare);
  if (version === 6) return classifyIpv6(bare);
  return 'reserved';
}

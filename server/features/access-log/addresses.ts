import { isIPv4, isIPv6 } from 'node:net';

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail counted as two); undefined when it is none. */
function ipv6Groups(address: string): number[] | undefined {
  const plain = address.split('%')[0] ?? '';
  if (!isIPv6(plain)) return undefined;
  const [head = '', tail] = plain.split('::');
  const part = (text: string) =>
    text === ''
      ? []
      : text.split(':').flatMap((group) => {
          if (!isIPv4(group)) return [parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const front = part(head);
  const back = tail === undefined ? [] : part(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/**
 * What an access log keeps of a visitor's address: its network (IPv4 /24, IPv6 /48) unless `full`; an IPv4 address
 * seen through an IPv6 socket (`::ffff:203.0.113.7`) is an IPv4 address. '' for anything that is no address.
 */
export function loggedAddress(address: string, full: boolean): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const v4 = mapped ?? address;
  if (isIPv4(v4)) return full ? v4 : `${v4.split('.').slice(0, 3).join('.')}.0/24`;
  const groups = ipv6Groups(address);
  if (!groups) return '';
  const kept = full ? groups : [...groups.slice(0, 3), 0, 0, 0, 0, 0];
  return `${canonicalIpv6(kept)}${full ? '' : '/48'}`;
}

/** RFC 5952's text of eight groups (lower case, the longest run of zero groups as `::`), as URLs write it. */
const canonicalIpv6 = (groups: number[]) => new URL(`http://[${groups.map((group) => group.toString(16)).join(':')}]`).hostname.slice(1, -1);

import { isIP } from 'node:net';

/** The eight 16-bit groups of an IPv6 address, or null when it is not one (an IPv4 tail counts as two groups). */
function ipv6Groups(address: string): number[] | null {
  const bare = address.replace(/%.*$/, '');
  if (isIP(bare) !== 6) return null;
  const withV4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(bare);
  let text = bare;
  if (withV4) {
    const [a, b, c, d] = withV4.slice(1).map(Number);
    text = bare.slice(0, withV4.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const part = (s: string | null): number[] => (s ? s.split(':').filter((g) => g !== '').map((g) => parseInt(g, 16)) : []);
  const front = part(head);
  if (tail === null) return front.length === 8 ? front : null;
  const back = part(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/**
 * S4: what failed connects are counted under. An IPv4 address is itself; an IPv6 address is its /64, the block one
 * host is usually given (anyone holding one can pick any of its 2^64 addresses, so counting each would be no limit at
 * all); `::1` is itself. Anything else (`unknown`, a name) is counted as written.
 */
export function addressBlock(address: string): string {
  const groups = ipv6Groups(address.trim().replace(/^\[|\]$/g, '').toLowerCase());
  if (!groups) return address;
  if (groups.every((g, i) => g === (i === 7 ? 1 : 0))) return '::1';
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

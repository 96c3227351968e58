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

/** The IPv4 address an IPv6 address carries in its last 32 bits (mapped, translated, compatible, NAT64), else null. */
function embeddedIpv4(g: number[]): string | null {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const carries =
    (zeros(0, 5) && g[5] === 0xffff) || // ::ffff:a.b.c.d, mapped
    (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) || // ::ffff:0:a.b.c.d, translated
    (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) || // 64:ff9b::a.b.c.d, NAT64
    (zeros(0, 6) && (g[6] !== 0 || g[7] > 1)); // ::a.b.c.d, compatible (not :: or ::1)
  return carries ? [g[6] >> 8, g[6] & 0xff, g[7] >> 8, g[7] & 0xff].join('.') : null;
}

/**
 * S4: what failed connects are counted under. An IPv4 address is itself, and so is one an IPv6 address carries
 * (`::ffff:10.0.0.1` in any spelling is `10.0.0.1`); a link-local address (fe80::/10, the same /64 for every neighbour
 * on a link) and `::1` are themselves; any other IPv6 address is its /64, the block one host is usually given (anyone
 * holding one can pick any of its 2^64 addresses, so counting each would be no limit at all). Anything else
 * (`unknown`, a name) is counted as written.
 */
export function addressBlock(address: string): string {
  const bare = address.trim().replace(/^\[|\]$/g, '').toLowerCase();
  const groups = ipv6Groups(bare);
  if (!groups) return address;
  const v4 = embeddedIpv4(groups);
  if (v4) return v4;
  if (groups.every((g, i) => g === (i === 7 ? 1 : 0))) return '::1';
  if ((groups[0] & 0xffc0) === 0xfe80) return groups.map((g) => g.toString(16)).join(':') + (bare.includes('%') ? bare.slice(bare.indexOf('%')) : '');
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

import { describe, expect, it } from 'vitest';
import { addressBlock } from './address-block.ts';
import { LoginGuard } from './login-guard.ts';

const limit = { maxFailures: 10, windowMs: 60_000 };

describe('S4 failed connects per remote address', () => {
  it('locks out an IPv6 host that moves around its /64 after 10 failures', () => {
    const guard = new LoginGuard(limit, () => 1_000);
    for (let i = 1; i <= 10; i++) guard.fail(`2001:db8:aa:bb::${i.toString(16)}`);
    expect(guard.blockedFor('2001:db8:aa:bb:ffff:1:2:3')).toBe(60_000);
    expect(guard.blockedFor('[2001:0db8:00aa:00bb::77]')).toBe(60_000);
  });

  it('does not count another /64 or another IPv4 address against it', () => {
    const guard = new LoginGuard(limit, () => 1_000);
    for (let i = 0; i < 10; i++) guard.fail(`2001:db8:aa:bb::${i + 1}`);
    for (let i = 0; i < 10; i++) guard.fail('10.0.0.1');
    expect(guard.blockedFor('2001:db8:aa:bc::1')).toBeNull();
    expect(guard.blockedFor('10.0.0.2')).toBeNull();
    expect(guard.blockedFor('10.0.0.1')).toBe(60_000);
  });

  it('names the block an address is counted under', () => {
    expect(addressBlock('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressBlock('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressBlock('::ffff:0:10.1.2.3')).toBe('0:0:0:0::/64');
    expect(addressBlock('::1')).toBe('::1');
    expect(addressBlock('[::1]')).toBe('::1');
    expect(addressBlock('192.0.2.7')).toBe('192.0.2.7');
    expect(addressBlock('unknown')).toBe('unknown');
  });
});

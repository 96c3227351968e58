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

  it('counts an IPv4 address written as IPv6 (a proxy\'s X-Forwarded-For may spell it so) as that IPv4 address alone', () => {
    const guard = new LoginGuard(limit, () => 1_000);
    const spellings = ['0:0:0:0:0:ffff:198.51.100.5', '::ffff:c633:6405', '::ffff:0:198.51.100.5', '64:ff9b::c633:6405', '198.51.100.5'];
    for (let i = 0; i < 10; i++) guard.fail(spellings[i % spellings.length]);
    expect(guard.blockedFor('198.51.100.5')).toBe(60_000);
    expect(guard.blockedFor('::ffff:a01:203')).toBeNull();
    expect(guard.blockedFor('::ffff:198.51.100.6')).toBeNull();
  });

  it('counts link-local neighbours each on their own: they all share fe80::/64', () => {
    const guard = new LoginGuard(limit, () => 1_000);
    for (let i = 0; i < 10; i++) guard.fail('fe80::a:1%eth0');
    expect(guard.blockedFor('fe80::b:2%eth0')).toBeNull();
    expect(guard.blockedFor('fe80::a:1%eth0')).toBe(60_000);
  });

  it('names the block an address is counted under', () => {
    expect(addressBlock('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressBlock('2001:db8::ffff:0:0')).toBe('2001:db8:0:0::/64');
    expect(addressBlock('fe80::1%eth0')).toBe('fe80:0:0:0:0:0:0:1%eth0');
    expect(addressBlock('::ffff:0:10.1.2.3')).toBe('10.1.2.3');
    expect(addressBlock('0:0:0:0:0:ffff:c633:6405')).toBe('198.51.100.5');
    expect(addressBlock('::ffff:a01:203')).toBe('10.1.2.3');
    expect(addressBlock('64:ff9b::203.0.113.9')).toBe('203.0.113.9');
    expect(addressBlock('::1.2.3.4')).toBe('1.2.3.4');
    expect(addressBlock('::')).toBe('0:0:0:0::/64');
    expect(addressBlock('::1')).toBe('::1');
    expect(addressBlock('[::1]')).toBe('::1');
    expect(addressBlock('192.0.2.7')).toBe('192.0.2.7');
    expect(addressBlock('unknown')).toBe('unknown');
  });
});

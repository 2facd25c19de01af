import { DEFAULT_RATE_LIMITS, parseRateLimits } from './rate-limits';
import ipaddr from 'ipaddr.js';
import { addressKey } from './flexible-rate-limiter';

describe('parseRateLimits', () => {
  it('defaults to the API-DECISIONS limits', () => {
    expect(parseRateLimits(undefined)).toEqual({
      read: 100,
      write: 20,
      trigger: 10,
      alert: 600,
      auth_fail: 30,
    });
    expect(parseRateLimits('')).toEqual(DEFAULT_RATE_LIMITS);
  });
  it('overrides the classes given and keeps the others', () => {
    expect(parseRateLimits('read=5, trigger=1')).toEqual({
      read: 5,
      write: 20,
      trigger: 1,
      alert: 600,
      auth_fail: 30,
    });
    expect(parseRateLimits('read=100,write=20,trigger=10,auth_fail=3').auth_fail).toBe(3);
  });
  it.each([
    'read',
    'read=',
    'read=0',
    'read=-1',
    'read=1.5',
    'reads=10',
    'read=10;write=2',
    'write=abc',
  ])('refuses %p', (spec) => {
    expect(() => parseRateLimits(spec)).toThrow();
  });
});

describe('addressKey', () => {
  it('folds IPv4-mapped IPv6 into IPv4 and IPv6 into its /64', () => {
    expect(addressKey('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(addressKey('10.1.2.3')).toBe('10.1.2.3');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe(addressKey('2001:db8:1:2:bbbb::9'));
    expect(addressKey('2001:db8:1:2::1')).not.toBe(addressKey('2001:db8:1:3::1'));
  });

  it('keys every IPv4 spelling as ipaddr normalizes it (the dotted-quad shortcut included)', () => {
    const viaIpaddr = (a: string) => (ipaddr.isValid(a) ? ipaddr.process(a).toString() : a);
    for (const a of [
      '0.0.0.0',
      '127.0.0.1',
      '255.255.255.255',
      '192.168.1.10',
      '10.01.2.3',
      '010.1.2.3',
      '256.1.2.3',
      '1.2.3',
      '1.2.3.4.5',
      '0x7f.0.0.1',
      '::ffff:127.0.0.1',
      'not-an-address',
    ])
      expect([a, addressKey(a)]).toEqual([a, viaIpaddr(a)]);
  });
});

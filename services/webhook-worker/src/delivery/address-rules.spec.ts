import { describe, expect, it } from '@jest/globals';
import { refusedAddress, type RefusedKind } from './address-rules.js';

const strict = { allowLoopback: false };
const kind = (address: string, rules = strict) => refusedAddress(address, rules)?.kind;

describe('refusedAddress', () => {
  it.each<[string, RefusedKind]>([
    // IPv4: every edge of every refused range
    ['0.0.0.0', 'unspecified'],
    ['0.255.255.255', 'unspecified'],
    ['10.0.0.0', 'private'],
    ['10.0.0.5', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.0', 'shared'],
    ['100.127.255.255', 'shared'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.0.1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['169.254.255.255', 'link-local'],
    ['172.16.0.0', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['192.168.255.255', 'private'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.254', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    // IPv6
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fec0::1', 'site-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fd00:ec2::254', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['ff0e::1', 'multicast'],
    // IPv4 inside IPv6: the IPv4 rules apply
    ['::ffff:10.0.0.5', 'private'],
    ['::ffff:a00:5', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['0:0:0:0:0:ffff:192.168.1.1', 'private'],
    ['::10.0.0.5', 'reserved'],
    ['::8.8.8.8', 'reserved'],
    ['64:ff9b::10.0.0.5', 'private'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b:1::a9fe:a9fe', 'metadata'],
    ['2002:c0a8:101::1', 'private'],
    ['2002:7f00:1::', 'loopback'],
    // brackets, as URLs write IPv6
    ['[::1]', 'loopback'],
    ['[fd00::1]', 'unique-local'],
  ])('refuses %s as %s', (address, expected) => {
    expect(kind(address)).toBe(expected);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '126.255.255.255',
    '128.0.0.0',
    '169.253.255.255',
    '169.255.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.167.255.255',
    '192.169.0.0',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    'fbff::1',
    'fe7f::1',
    '[2606:4700::6810:84e5]',
  ])('allows %s', (address) => {
    expect(refusedAddress(address, strict)).toBeUndefined();
  });

  it('allows loopback, and only loopback, when the tests ask for it', () => {
    const loose = { allowLoopback: true };
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1', '[::1]'])
      expect(refusedAddress(address, loose)).toBeUndefined();
    for (const address of ['10.0.0.5', '192.168.1.1', '172.16.0.1', '169.254.169.254', 'fd00::1', 'fe80::1', '0.0.0.0', '::'])
      expect(refusedAddress(address, loose)).toBeDefined();
  });

  it('says what the address is, in words for the endpoint owner', () => {
    expect(refusedAddress('10.0.0.5', strict)).toEqual({ address: '10.0.0.5', kind: 'private', reason: '10.0.0.5 is a private address' });
    expect(refusedAddress('[::1]', strict)?.reason).toBe('::1 is a loopback address');
    expect(refusedAddress('169.254.169.254', strict)?.reason).toBe('169.254.169.254 is the cloud metadata address');
    expect(refusedAddress('::ffff:192.168.0.1', strict)?.reason).toBe('::ffff:192.168.0.1 is a private address');
  });

  it('refuses anything that is not an IP literal (names are checked after they are resolved)', () => {
    expect(kind('localhost')).toBe('reserved');
    expect(kind('example.com')).toBe('reserved');
    expect(kind('')).toBe('reserved');
  });
});

import { describe, expect, it } from 'vitest';
import { classifyAddress, isAddressAllowed, type AddressKind } from './address-policy';

describe('classifyAddress', () => {
  it.each<[string, AddressKind]>([
    ['8.8.8.8', 'public'],
    ['203.0.113.10', 'public'],
    ['1.1.1.1', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['100.128.0.1', 'public'],
    ['169.254.1.1', 'link_local'],
    ['169.254.169.254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:8.8.8.8', 'public'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['2002:7f00:0001::', 'loopback'],
    ['2002:0808:0808::1', 'public'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fec0::1', 'private'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['febf::1', 'link_local'],
    ['ff02::1', 'multicast'],
    ['fd00:ec2::254', 'metadata'],
    ['2001:4860:4860::8888', 'public'],
    ['2606:4700::1111', 'public'],
    ['not an address', 'reserved'],
    ['example.com', 'reserved'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

describe('isAddressAllowed', () => {
  it('allows public addresses always, private ones only with ALLOW_PRIVATE_URLS, metadata and the like never', () => {
    for (const allowPrivate of [false, true]) {
      expect(isAddressAllowed('public', allowPrivate)).toBe(true);
      for (const kind of ['loopback', 'private', 'cgnat', 'link_local'] as const) expect(isAddressAllowed(kind, allowPrivate)).toBe(allowPrivate);
      for (const kind of ['metadata', 'multicast', 'unspecified', 'reserved'] as const) expect(isAddressAllowed(kind, allowPrivate)).toBe(false);
    }
  });
});

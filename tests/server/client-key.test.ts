import { describe, expect, it } from 'vitest';
import { clientKey, networkKey, ownerGroups, photoOwner, providerKey } from '../../src/server/client-key';

describe('clientKey', () => {
  it('keeps an IPv4 address, also when IPv4-mapped', () => {
    expect(clientKey('192.0.2.7')).toBe('192.0.2.7');
    expect(clientKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
  });

  it('groups IPv6 addresses by their /64 network, however they are written', () => {
    const key = clientKey('2001:db8:0:1::1');
    expect(key).toBe('2001:db8:0:1::/64');
    expect(clientKey('2001:0db8:0000:0001:ffff:ffff:ffff:ffff')).toBe(key);
    expect(clientKey('2001:DB8:0:1:a::b')).toBe(key);
    expect(clientKey('2001:db8:0:2::1')).not.toBe(key);
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
  });
});

describe('networkKey', () => {
  it('groups IPv4 addresses by /24 and IPv6 by /48, one site with all its /56s and /64s, however they are written', () => {
    expect(networkKey('192.0.2.7')).toBe('192.0.2.0/24');
    expect(networkKey('::ffff:192.0.2.200')).toBe('192.0.2.0/24');
    expect(networkKey('192.0.3.7')).not.toBe(networkKey('192.0.2.7'));
    expect(networkKey('2001:db8:0:1ab::1')).toBe('2001:db8:0::/48');
    expect(networkKey('2001:0db8:0000:ffff:ffff::')).toBe('2001:db8:0::/48');
    expect(networkKey('2001:db8:1:2ab::1')).toBe('2001:db8:1::/48');
    expect(networkKey('::1')).toBe('0:0:0::/48');
  });

  it('groups networks by their provider block: IPv4 /16, IPv6 /32', () => {
    expect(providerKey('192.0.2.7')).toBe('192.0.0.0/16');
    expect(providerKey('::ffff:192.0.200.1')).toBe('192.0.0.0/16');
    expect(providerKey('192.1.2.7')).not.toBe(providerKey('192.0.2.7'));
    expect(providerKey('2001:db8:ffff:1::1')).toBe('2001:db8::/32');
    expect(providerKey('2001:db9::1')).toBe('2001:db9::/32');
  });

  it("makes a photo owner of provider block, network and client, so a network's and a block's owners share a prefix", () => {
    expect(photoOwner('192.0.2.7')).toBe('192.0.0.0/16 192.0.2.0/24 192.0.2.7');
    expect(photoOwner('2001:db8:0:1ab::1')).toBe('2001:db8::/32 2001:db8:0::/48 2001:db8:0:1ab::/64');
    expect(ownerGroups(photoOwner('2001:db8:0:1ab::1'))).toEqual({ provider: '2001:db8::/32 ', network: '2001:db8::/32 2001:db8:0::/48 ' });
    for (const [a, b] of [['10.1.2.3', '10.1.2.200'], ['2001:db8:5:100::1', '2001:db8:5:ff00::1']]) {
      expect(photoOwner(b).startsWith(ownerGroups(photoOwner(a)).network)).toBe(true);
    }
    expect(photoOwner('10.1.9.9').startsWith(ownerGroups(photoOwner('10.1.2.3')).network)).toBe(false);
    expect(photoOwner('10.1.9.9').startsWith(ownerGroups(photoOwner('10.1.2.3')).provider)).toBe(true);
  });
});

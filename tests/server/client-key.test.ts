import { describe, expect, it } from 'vitest';
import { clientKey, networkKey, photoOwner } from '../../src/server/client-key';

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
  it('groups IPv4 addresses by /24 and IPv6 by /56, however they are written', () => {
    expect(networkKey('192.0.2.7')).toBe('192.0.2.0/24');
    expect(networkKey('::ffff:192.0.2.200')).toBe('192.0.2.0/24');
    expect(networkKey('192.0.3.7')).not.toBe(networkKey('192.0.2.7'));
    expect(networkKey('2001:db8:0:1ab::1')).toBe('2001:db8:0:100::/56');
    expect(networkKey('2001:0db8:0000:01ff:ffff::')).toBe('2001:db8:0:100::/56');
    expect(networkKey('2001:db8:0:2ab::1')).toBe('2001:db8:0:200::/56');
    expect(networkKey('::1')).toBe('0:0:0:0::/56');
  });

  it("makes a photo owner of the network and the client, so a network's owners share a prefix", () => {
    expect(photoOwner('192.0.2.7')).toBe('192.0.2.0/24 192.0.2.7');
    expect(photoOwner('2001:db8:0:1ab::1')).toBe('2001:db8:0:100::/56 2001:db8:0:1ab::/64');
  });
});

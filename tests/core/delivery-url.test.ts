import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deliveryUrlProblem, hostKind } from '../../src/core/delivery-url';

describe('webhook addresses a brand file may name', () => {
  it.each([
    ['https://127.0.0.1/hooks', 'loopback'],
    ['https://127.8.9.10/hooks', 'loopback'],
    ['https://localhost/hooks', 'loopback'],
    ['https://LOCALHOST./hooks', 'loopback'],
    ['https://tickets.localhost/hooks', 'loopback'],
    ['https://[::1]/hooks', 'loopback'],
    ['https://[::ffff:127.0.0.1]/hooks', 'loopback'],
    ['https://2130706433/hooks', 'loopback'],
    ['https://0x7f.1/hooks', 'loopback'],
    ['https://017700000001/hooks', 'loopback'],
    ['https://10.0.0.1/hooks', 'private'],
    ['https://172.16.0.1/hooks', 'private'],
    ['https://172.31.255.255/hooks', 'private'],
    ['https://192.168.0.1/hooks', 'private'],
    ['https://100.64.0.1/hooks', 'private'],
    ['https://[fc00::1]/hooks', 'private'],
    ['https://[fdff:ffff::1]/hooks', 'private'],
    ['https://[::ffff:10.1.2.3]/hooks', 'private'],
    ['https://169.254.169.254/latest/meta-data', 'link-local'],
    ['https://[fe80::1]/hooks', 'link-local'],
    ['https://[febf::1]/hooks', 'link-local'],
    ['https://0.0.0.0/hooks', 'unspecified'],
    ['https://[::]/hooks', 'unspecified'],
    ['https://224.0.0.1/hooks', 'reserved'],
    ['https://255.255.255.255/hooks', 'reserved'],
    ['https://[ff02::1]/hooks', 'reserved'],
    ['https://tickets.example.com/hooks', 'public'],
    ['https://172.32.0.1/hooks', 'public'],
    ['https://172.15.255.255/hooks', 'public'],
    ['https://8.8.8.8/hooks', 'public'],
    ['https://[2001:db8::1]/hooks', 'public'],
    ['https://[fec0::1]/hooks', 'public'],
    ['https://localhost.example.com/hooks', 'public'],
  ])('%s is %s', (url, kind) => {
    expect(hostKind(new URL(url).hostname)).toBe(kind);
  });

  it('refuses every non-public address unless the brand allows its own network, and credentials always', () => {
    expect(deliveryUrlProblem('https://tickets.example.com/hooks', false)).toBeUndefined();
    expect(deliveryUrlProblem('https://10.0.0.1/hooks', false)).toMatch(/^"https:\/\/10\.0\.0\.1\/hooks" points into a private network \(10\.0\.0\.1\)/);
    expect(deliveryUrlProblem('https://10.0.0.1/hooks', true)).toBeUndefined();
    expect(deliveryUrlProblem('https://127.0.0.1:9443/hooks', true)).toBeUndefined();
    expect(deliveryUrlProblem('https://ticketbot:s3cr3t-pw@tickets.example.com/hooks', true)).toMatch(/user name or password/);
    expect(deliveryUrlProblem('https://ticketbot:s3cr3t-pw@tickets.example.com/hooks', true)).not.toMatch(/ticketbot|s3cr3t/);
    expect(deliveryUrlProblem('https://bot@tickets.example.com/hooks', false)).toMatch(/user name or password/);
  });

  it('leaves what is no URL to the brand schema', () => {
    expect(deliveryUrlProblem('not a url', false)).toBeUndefined();
  });

  // The URL parser reads an IPv4 address in decimal, octal, hex or shortened forms: every spelling is judged by the address.
  it('finds a private IPv4 address however it is written', () => {
    const spellings = (n: number) => [
      String(n),
      `0x${n.toString(16)}`,
      `0${n.toString(8)}`,
      [n >>> 24, (n >>> 16) & 255, n & 65535].join('.'),
      [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].map((p) => `0x${p.toString(16)}`).join('.'),
    ];
    const inRange = (base: number, bits: number) => fc.integer({ min: 0, max: 2 ** (32 - bits) - 1 }).map((i) => (base + i) >>> 0);
    const privateAddress = fc.oneof(inRange(0x0a000000, 8), inRange(0xac100000, 12), inRange(0xc0a80000, 16), inRange(0x7f000000, 8), inRange(0xa9fe0000, 16));
    fc.assert(
      fc.property(privateAddress, fc.nat(4), (n, which) => {
        expect(deliveryUrlProblem(`https://${spellings(n)[which]}/hooks`, false)).toBeDefined();
      }),
      { numRuns: 500 },
    );
  });
});

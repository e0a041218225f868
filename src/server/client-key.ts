import { isIPv6 } from 'node:net';

/** An IPv6 address's eight groups as written without leading zeros (`::` filled out); undefined for IPv4. */
function ipv6Groups(address: string): string[] | undefined {
  if (!isIPv6(address) || /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address)) return undefined;
  const [head, tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return groups.map((g) => g.replace(/^0+(?=.)/, ''));
}

/** An IPv4 address (also IPv4-mapped IPv6) as written. */
const ipv4 = (address: string) => /^(?:::ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;

/** The IPv6 network of the first `groups` groups (16 bits each): `2001:db8:1::/48`. */
const ipv6Prefix = (groups: string[], n: number) => `${groups.slice(0, n).join(':')}::/${16 * n}`;

/** The IPv4 network of the first `octets` octets: `192.0.2.0/24`. */
const ipv4Prefix = (address: string, n: number) => `${[...address.split('.').slice(0, n), ...Array<string>(4 - n).fill('0')].join('.')}/${8 * n}`;

/**
 * Whom a share or quota belongs to: an IPv4 address, or the /64 network of
 * an IPv6 address (one household or phone gets a whole /64, so counting
 * single IPv6 addresses would give one client billions of shares).
 */
export function clientKey(address: string): string {
  const groups = ipv6Groups(address);
  return groups ? ipv6Prefix(groups, 4) : ipv4(address);
}

/**
 * The network a client is in, for shares its neighbourhood has together: an IPv6 /48, what providers
 * hand one site (its /56s and /64s are that site's networks: spreading over them is one client's doing),
 * or an IPv4 /24, the smallest block abuse lists name.
 */
export function networkKey(address: string): string {
  const groups = ipv6Groups(address);
  return groups ? ipv6Prefix(groups, 3) : ipv4Prefix(ipv4(address), 3);
}

/**
 * The provider's block a network is in: an IPv6 /32 (a provider's usual allocation) or an IPv4 /16. Abuse
 * lists escalate from single /24s to the block around them once many of its /24s misbehave; a share of the
 * block does the same for uploads spread over many /24s (or /48s) of one provider.
 */
export function providerKey(address: string): string {
  const groups = ipv6Groups(address);
  return groups ? ipv6Prefix(groups, 2) : ipv4Prefix(ipv4(address), 2);
}

/**
 * Whom an unclaimed photo is counted against: provider block, network and client, in one text
 * (`<provider> <network> <client>`), so the quotas find a client's bytes by equality and a network's
 * or a provider's by prefix (ownerGroups).
 */
export function photoOwner(address: string): string {
  return `${providerKey(address)} ${networkKey(address)} ${clientKey(address)}`;
}

/** The prefixes an owner's provider block and network are found by (each up to and with its space), widest first. */
export function ownerGroups(owner: string): { provider: string; network: string } {
  const [provider = '', network = ''] = owner.split(' ');
  return { provider: `${provider} `, network: `${provider} ${network} ` };
}

import { isIPv6 } from 'node:net';

/**
 * Whom a share or quota belongs to: an IPv4 address, or the /64 network of
 * an IPv6 address (one household or phone gets a whole /64, so counting
 * single IPv6 addresses would give one client billions of shares).
 */
export function clientKey(address: string): string {
  if (!isIPv6(address)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  const [head, tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/**
 * The network a client is in, for shares a neighbourhood of addresses has together: an IPv4 /24,
 * or an IPv6 /56 (what a provider commonly gives one customer), so a few hundred addresses of one
 * network count as one.
 */
export function networkKey(address: string): string {
  const client = clientKey(address);
  if (!client.endsWith('::/64')) return client.includes('.') ? `${client.split('.').slice(0, 3).join('.')}.0/24` : client;
  const groups = client.slice(0, -'::/64'.length).split(':');
  const fourth = (Number.parseInt(groups[3] ?? '0', 16) & 0xff00).toString(16);
  return `${[...groups.slice(0, 3), fourth].join(':')}::/56`;
}

/**
 * Whom an unclaimed photo is counted against: its network and the client, in one text
 * (`<network> <client>`), so the quotas find a client's bytes by equality and a network's by prefix.
 */
export function photoOwner(address: string): string {
  return `${networkKey(address)} ${clientKey(address)}`;
}

/** Where an address leads, as far as the address alone tells (a DNS name is judged when it is looked up). */
export type HostKind = 'public' | 'loopback' | 'private' | 'link-local' | 'unspecified' | 'reserved';

type Range = [first: number, bits: number, kind: HostKind];

/** IPv4 blocks no ticketing system on the internet answers from (RFC 1122, 1918, 3927, 6598, 5771, 1112). */
const IPV4: Range[] = [
  [0x00000000, 8, 'unspecified'],
  [0x7f000000, 8, 'loopback'],
  [0x0a000000, 8, 'private'],
  [0xac100000, 12, 'private'],
  [0xc0a80000, 16, 'private'],
  [0x64400000, 10, 'private'],
  [0xa9fe0000, 16, 'link-local'],
  [0xe0000000, 4, 'reserved'],
  [0xf0000000, 4, 'reserved'],
];

function ipv4Kind(address: number): HostKind {
  const range = IPV4.find(([first, bits]) => (address >>> (32 - bits)) === (first >>> (32 - bits)));
  return range ? range[2] : 'public';
}

/** The 32-bit value of a dotted IPv4 address, as the URL parser writes every IPv4 spelling (2130706433, 0x7f.1). */
function ipv4Value(host: string): number | undefined {
  const parts = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return parts ? parts.slice(1).reduce((value, part) => value * 256 + Number(part), 0) : undefined;
}

/** The eight 16-bit groups of an IPv6 address as the URL parser writes it (lower-case hex, `::` for zeros). */
function ipv6Groups(host: string): number[] | undefined {
  const halves = host.split('::');
  if (halves.length > 2) return undefined;
  const [head, tail] = halves.map((half) => (half === '' ? [] : half.split(':').map((g) => parseInt(g, 16))));
  const groups = tail === undefined ? head : [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

function ipv6Kind(g: number[]): HostKind {
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  const embedded = g[6] * 65536 + g[7];
  if (zeros(8)) return 'unspecified';
  if (zeros(7) && g[7] === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) reach an IPv4 address.
  if ((zeros(5) && g[5] === 0xffff) || zeros(6) || (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0))) {
    return ipv4Kind(embedded);
  }
  if ((g[0] & 0xfe00) === 0xfc00) return 'private';
  if ((g[0] & 0xffc0) === 0xfe80) return 'link-local';
  if ((g[0] & 0xff00) === 0xff00) return 'reserved';
  return 'public';
}

/** What a URL's hostname (as `new URL(…).hostname` gives it) points at. */
export function hostKind(hostname: string): HostKind {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  const v4 = ipv4Value(host);
  if (v4 !== undefined) return ipv4Kind(v4);
  const v6 = host.startsWith('[') && host.endsWith(']') ? ipv6Groups(host.slice(1, -1)) : undefined;
  return v6 ? ipv6Kind(v6) : 'public';
}

const WHERE: Record<Exclude<HostKind, 'public'>, (host: string) => string> = {
  loopback: (host) => `points at the portal's own server (${host}, a loopback address)`,
  private: (host) => `points into a private network (${host})`,
  'link-local': (host) => `points at a link-local address (${host}), such as a cloud server's own metadata service`,
  unspecified: (host) => `points at no machine in particular (${host})`,
  reserved: (host) => `points at an address reserved for other uses (${host}), not at one machine`,
};

/**
 * Why the portal must not post a brand's requests to this webhook address,
 * in words for the brand file's author; undefined when it may. A webhook
 * carries every request with the customer's data and links to the photos:
 * it goes to a ticketing system on the internet, not to the portal's own
 * machine, its network or a cloud metadata service, unless the brand file
 * says the receiver lives in the company's own network
 * (`allowPrivateNetwork`). A user name or password in the address is a
 * secret in a file, and is refused whatever is allowed. An address that
 * does not parse is left to the brand schema.
 */
export function deliveryUrlProblem(url: string, allowPrivateNetwork: boolean): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.username || parsed.password) {
    return 'The address has a user name or password in it. Never write a secret in a brand file: remove the part before @ from the address (the portal signs every webhook with the secret named in secretEnv).';
  }
  const kind = hostKind(parsed.hostname);
  if (kind === 'public' || allowPrivateNetwork) return undefined;
  return `"${url}" ${WHERE[kind](parsed.hostname)}, not at a ticketing system on the internet. Write the ticketing system's public https:// address; if it really runs in your company's own network, add "allowPrivateNetwork": true to the webhook.`;
}

import { isIPv4, isIPv6 } from 'node:net';

// Which addresses a webhook may reach (ADR 0053): an endpoint's URL is its owner's to choose, so without these
// rules a webhook could make this worker call the platform's own services, the cloud's metadata service or
// anything else inside the network. The rules are applied to every address a name resolves to, after DNS, and
// to literal addresses before connecting (delivery/filtering-agent.ts).

/** Why an address may not be reached. */
export type RefusedKind =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'metadata'
  | 'shared'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'unique-local'
  | 'site-local';

/** An address the rules refuse, with the words its endpoint's owner reads (`10.0.0.5 is a private address`). */
export interface AddressRefusal {
  address: string;
  kind: RefusedKind;
  /** The whole reason: `<address> is <what it is>`. */
  reason: string;
}

export interface AddressRules {
  /** Loopback (127.0.0.0/8, ::1) allowed: tests' own receivers only (WEBHOOK_ALLOW_LOOPBACK). Nothing else is ever allowed. */
  allowLoopback: boolean;
}

const WORDS: Record<RefusedKind, string> = {
  unspecified: 'an unspecified address',
  loopback: 'a loopback address',
  private: 'a private address',
  'link-local': 'a link-local address',
  metadata: 'the cloud metadata address',
  shared: 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  reserved: 'a reserved address',
  'unique-local': 'a unique-local address',
  'site-local': 'a site-local address',
};

type Ipv4Range = readonly [base: string, bits: number, kind: RefusedKind];

// The first range that holds an address decides (the metadata address before link-local, broadcast before reserved).
const IPV4_REFUSED: readonly Ipv4Range[] = [
  ['0.0.0.0', 8, 'unspecified'], // "this network": 0.0.0.0 reaches the machine itself
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.169.254', 32, 'metadata'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.168.0.0', 16, 'private'],
  ['224.0.0.0', 4, 'multicast'],
  ['255.255.255.255', 32, 'broadcast'],
  ['240.0.0.0', 4, 'reserved'],
];

/** The refusal of `address` (an IPv4 or IPv6 literal, brackets and zone allowed), or undefined when it may be reached. */
export function refusedAddress(address: string, rules: AddressRules): AddressRefusal | undefined {
  const literal = address.replace(/^\[(.*)\]$/, '$1');
  const kind = kindOf(literal);
  if (kind === undefined || (kind === 'loopback' && rules.allowLoopback)) return undefined;
  return { address: literal, kind, reason: `${literal} is ${WORDS[kind]}` };
}

/**
 * What kind of refused address `literal` is, or undefined for an address on the public internet. Anything
 * that is not an IP literal is refused as reserved: a caller checks names only after resolving them.
 */
function kindOf(literal: string): RefusedKind | undefined {
  if (isIPv4(literal)) return ipv4Kind(ipv4Number(literal));
  if (isIPv6(literal)) return ipv6Kind(ipv6Hextets(literal.replace(/%.*$/, '')));
  return 'reserved';
}

function ipv4Kind(value: number): RefusedKind | undefined {
  return IPV4_REFUSED.find(([base, bits]) => inIpv4Range(value, ipv4Number(base), bits))?.[2];
}

function ipv6Kind(h: readonly number[]): RefusedKind | undefined {
  const zeroUpTo = (n: number) => h.slice(0, n).every((x) => x === 0);
  const embedded = (hi: number, lo: number) => (h[hi]! * 0x10000 + h[lo]!) >>> 0;
  if (zeroUpTo(8)) return 'unspecified';
  if (zeroUpTo(7) && h[7] === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d): the socket reaches the IPv4 address itself, so IPv4's rules apply.
  if (zeroUpTo(5) && h[5] === 0xffff) return ipv4Kind(embedded(6, 7));
  // IPv4-compatible (::a.b.c.d), deprecated since 2006: nothing legitimate uses it.
  if (zeroUpTo(6)) return 'reserved';
  // NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48): a gateway forwards to the IPv4 address in the last 32 bits.
  if (h[0] === 0x64 && h[1] === 0xff9b && ((h[2] === 0 && h[3] === 0 && h[4] === 0 && h[5] === 0) || h[2] === 1))
    return ipv4Kind(embedded(6, 7));
  // 6to4 (2002::/16): a relay forwards to the IPv4 address in bits 16 to 47.
  if (h[0] === 0x2002) return ipv4Kind(embedded(1, 2));
  const first = h[0]!;
  if ((first & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  if ((first & 0xffc0) === 0xfec0) return 'site-local'; // fec0::/10, the old private range
  if ((first & 0xfe00) === 0xfc00) return 'unique-local'; // fc00::/7 (fd00:ec2::254, a cloud's metadata, is here)
  if ((first & 0xff00) === 0xff00) return 'multicast'; // ff00::/8
  return undefined;
}

function ipv4Number(address: string): number {
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function inIpv4Range(value: number, base: number, bits: number): boolean {
  const size = 2 ** (32 - bits);
  return Math.floor(value / size) === Math.floor(base / size);
}

/** The eight 16-bit groups of a valid IPv6 literal (without zone), a dotted IPv4 tail included. */
function ipv6Hextets(literal: string): number[] {
  const groups = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((g) => {
          if (!g.includes('.')) return [parseInt(g, 16)];
          const v4 = ipv4Number(g);
          return [Math.floor(v4 / 0x10000), v4 % 0x10000];
        });
  const gap = literal.indexOf('::');
  if (gap === -1) return groups(literal);
  const head = groups(literal.slice(0, gap));
  const tail = groups(literal.slice(gap + 2));
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

import { BlockList, isIP } from 'node:net';

/**
 * What an IP address is, for the outbound policy:
 * - `forbidden`: never called on a tenant's behalf, whatever the operator set: link-local
 *   addresses, which hold the cloud providers' instance-metadata services (169.254.169.254 on
 *   AWS, GCP, Azure, OpenStack, Oracle; fd00:ec2::254 on AWS; 100.100.100.200 on Alibaba), and
 *   addresses that name no single host (unspecified, multicast, broadcast);
 * - `private`: this host and the operator's own networks (loopback, RFC 1918, carrier-grade NAT,
 *   unique-local and site-local IPv6, other non-global special-purpose blocks), refused when the
 *   operator sets GW_OUTBOUND_POLICY=deny-private;
 * - `public`: everything else.
 */
export type AddressClass = 'forbidden' | 'private' | 'public';

const FORBIDDEN = new BlockList();
FORBIDDEN.addSubnet('169.254.0.0', 16, 'ipv4');
FORBIDDEN.addSubnet('0.0.0.0', 8, 'ipv4');
FORBIDDEN.addAddress('100.100.100.200', 'ipv4');
FORBIDDEN.addSubnet('224.0.0.0', 4, 'ipv4');
FORBIDDEN.addAddress('255.255.255.255', 'ipv4');
FORBIDDEN.addSubnet('fe80::', 10, 'ipv6');
FORBIDDEN.addAddress('fd00:ec2::254', 'ipv6');
FORBIDDEN.addAddress('::', 'ipv6');
FORBIDDEN.addSubnet('ff00::', 8, 'ipv6');

const PRIVATE = new BlockList();
PRIVATE.addSubnet('127.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('10.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('172.16.0.0', 12, 'ipv4');
PRIVATE.addSubnet('192.168.0.0', 16, 'ipv4');
PRIVATE.addSubnet('100.64.0.0', 10, 'ipv4');
// IETF protocol assignments and benchmarking networks: not globally routed, often used inside.
PRIVATE.addSubnet('192.0.0.0', 24, 'ipv4');
PRIVATE.addSubnet('198.18.0.0', 15, 'ipv4');
PRIVATE.addAddress('::1', 'ipv6');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');
PRIVATE.addSubnet('fec0::', 10, 'ipv6');
// Local-use NAT64 (RFC 8215): its IPv4 part sits at a prefix length only the network knows.
PRIVATE.addSubnet('64:ff9b:1::', 48, 'ipv6');

/**
 * An address without brackets or a zone, with its family; an IPv6 address that carries an IPv4
 * address is given as that IPv4 address, which is what it is judged as.
 */
export function effectiveAddress(address: string): { address: string; family: 'ipv4' | 'ipv6' } | undefined {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return { address: bare, family: 'ipv4' };
  if (family !== 6) return undefined;
  const embedded = embeddedIpv4(ipv6Words(bare));
  return embedded ? { address: embedded, family: 'ipv4' } : { address: bare.toLowerCase(), family: 'ipv6' };
}

/** The class of an IP address; anything else is `public` (a name is judged by what it resolves to). */
export function classifyAddress(address: string): AddressClass {
  const effective = effectiveAddress(address);
  if (!effective) return 'public';
  if (FORBIDDEN.check(effective.address, effective.family)) return 'forbidden';
  if (PRIVATE.check(effective.address, effective.family)) return 'private';
  return 'public';
}

/** The eight 16-bit words of a valid IPv6 address (a trailing dotted IPv4 part included). */
function ipv6Words(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((word) => parseInt(word, 16)) : []);
  const front = parse(head);
  if (tail === undefined) return front;
  const back = parse(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

const dottedQuad = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/**
 * The IPv4 address an IPv6 address delivers to, for the forms that carry one: IPv4-mapped
 * (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d), well-known
 * NAT64 (64:ff9b::a.b.c.d), 6to4 (2002:aabb:ccdd::) and Teredo (2001:0::, client address inverted).
 */
function embeddedIpv4(w: number[]): string | undefined {
  const zeros = (from: number, to: number) => w.slice(from, to).every((word) => word === 0);
  if (zeros(0, 5) && w[5] === 0xffff) return dottedQuad(w[6], w[7]);
  if (zeros(0, 4) && w[4] === 0xffff && w[5] === 0) return dottedQuad(w[6], w[7]);
  // ::a.b.c.d, but not :: (unspecified) nor ::1 (loopback), which are IPv6 addresses of their own
  if (zeros(0, 6) && (w[6] !== 0 || w[7] > 1)) return dottedQuad(w[6], w[7]);
  if (w[0] === 0x64 && w[1] === 0xff9b && zeros(2, 6)) return dottedQuad(w[6], w[7]);
  if (w[0] === 0x2002) return dottedQuad(w[1], w[2]);
  if (w[0] === 0x2001 && w[1] === 0) return dottedQuad(w[6] ^ 0xffff, w[7] ^ 0xffff);
  return undefined;
}

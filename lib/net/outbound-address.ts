import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Where the management server never connects on a tenant's behalf (a URL a tenant gives it to
 * fetch): link-local addresses, which hold the cloud providers' instance-metadata services
 * (169.254.169.254 on AWS, GCP, Azure, OpenStack, Oracle; fd00:ec2::254 on AWS; 100.100.100.200
 * on Alibaba), and addresses that name no single host. Loopback and private networks stay
 * reachable: self-managed installations import documents from their own internal services.
 */
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

/** A connection the outbound policy refused. */
export class OutboundAddressRefused extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host === address ? address : `${host} resolves to ${address}, which`} is a link-local, cloud-metadata or multicast address`);
    this.name = 'OutboundAddressRefused';
  }
}

/** Whether the policy refuses an IP address (IPv4-mapped IPv6 addresses are judged as IPv4). */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)?.[1];
  const candidate = mapped ?? bare;
  const family = isIP(candidate);
  if (family === 0) return false;
  return FORBIDDEN.check(candidate, family === 4 ? 'ipv4' : 'ipv6');
}

/** Throws when a URL's host is an IP literal the policy refuses (a literal never goes through `lookup`). */
export function assertOutboundHost(url: URL): void {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isForbiddenAddress(host)) throw new OutboundAddressRefused(host, host);
}

export type Resolver = (hostname: string, options: LookupAllOptions, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;
type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for sockets (`net.connect`, undici's `connect.lookup`) that resolves a name and
 * refuses it when any of its addresses is forbidden, so the address checked is the address
 * connected to (no second resolution a rebinding DNS server could answer differently).
 */
export function guardedLookup(resolve: Resolver = dnsLookup as unknown as Resolver) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, { ...options, all: true } as LookupAllOptions, (err, addresses) => {
      if (err) return callback(err, []);
      const refused = addresses.find((entry) => isForbiddenAddress(entry.address));
      if (refused) return callback(new OutboundAddressRefused(hostname, refused.address) as NodeJS.ErrnoException, []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { addressRefusal, currentOutboundPolicy } from './outbound-policy';
import type { AddressRefusal, OutboundPolicy } from './outbound-policy';

const REASONS: Record<AddressRefusal, string> = {
  forbidden: 'a link-local, cloud-metadata or multicast address',
  private: 'a loopback or private-network address',
};

/** A connection the outbound policy (lib/net/outbound-policy.ts) refused. */
export class OutboundAddressRefused extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
    readonly reason: AddressRefusal = 'forbidden',
  ) {
    super(`${host === address ? address : `${host} resolves to ${address}, which`} is ${REASONS[reason]}`);
    this.name = 'OutboundAddressRefused';
  }
}

/**
 * Whether the outbound policy refuses `address`, reached through the name `hostname` (an
 * allow-listed name lifts a private address's refusal). IPv6 forms that carry an IPv4 address
 * (mapped, NAT64, 6to4, ...) are judged as that IPv4 address.
 */
export function isForbiddenAddress(address: string, hostname?: string, policy?: OutboundPolicy): boolean {
  return addressRefusal(address, hostname, policy) !== undefined;
}

/** The refusal of `address` reached through `hostname`, as an error, if the policy refuses it. */
export function refusedAddressError(
  hostname: string,
  address: string,
  policy: OutboundPolicy = currentOutboundPolicy(),
): OutboundAddressRefused | undefined {
  const bareHost = hostname.replace(/^\[|\]$/g, '');
  const bare = address.replace(/^\[|\]$/g, '');
  const reason = addressRefusal(bare, bareHost, policy);
  return reason ? new OutboundAddressRefused(bareHost, bare, reason) : undefined;
}

/** The refusal of a URL's host if it is an IP literal the policy refuses (a literal skips `lookup`). */
export function literalHostRefusal(url: URL, policy?: OutboundPolicy): OutboundAddressRefused | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) === 0 ? undefined : refusedAddressError(host, host, policy);
}

/** What a refused address is, for messages: "a link-local, cloud-metadata or multicast address". */
export function refusalReason(refusal: OutboundAddressRefused): string {
  return REASONS[refusal.reason];
}

/** Throws when a URL's host is an IP literal the policy refuses (a literal never goes through `lookup`). */
export function assertOutboundHost(url: URL, policy?: OutboundPolicy): void {
  const refusal = literalHostRefusal(url, policy);
  if (refusal) throw refusal;
}

export type Resolver = (
  hostname: string,
  options: LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;
type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for sockets (`net.connect`, undici's `connect.lookup`) that resolves a name and
 * refuses it when any of its addresses is forbidden, so the address checked is the address
 * connected to (no second resolution a rebinding DNS server could answer differently).
 */
export function guardedLookup(resolve: Resolver = dnsLookup, policy?: OutboundPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      // the policy is read per lookup: a node installs its own when it starts
      const applied = policy ?? currentOutboundPolicy();
      for (const entry of addresses) {
        const refusal = refusedAddressError(hostname, entry.address, applied);
        if (refusal) return callback(refusal, []);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

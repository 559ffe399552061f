import { BlockList, isIP } from 'node:net';
import { classifyAddress, effectiveAddress } from './address-ranges';

export type OutboundMode = 'allow' | 'deny-private';

/**
 * Which addresses the gateway calls on a tenant's behalf (upstreams, webhooks, uptime checks,
 * service discovery, stream and data-source connectors, imports). Link-local, cloud-metadata,
 * multicast and unspecified addresses are refused in every mode; `deny-private` also refuses
 * loopback and private networks (lib/net/address-ranges.ts) unless the address, or the host
 * name the tenant wrote, is on the operator's allow list.
 */
export interface OutboundPolicy {
  readonly mode: OutboundMode;
  /** the allow list as the operator wrote it */
  readonly allow: readonly string[];
  readonly allowedNetworks: BlockList;
  /** host names, lower case; `*.example.internal` allows every name under example.internal */
  readonly allowedHosts: readonly string[];
}

/** Why an address is refused: one of the always-refused ranges, or a private one under deny-private. */
export type AddressRefusal = 'forbidden' | 'private';

const HOST_NAME = /^(\*\.)?([a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*\.?$/i;

/** Builds a policy; throws on an allow-list entry that is not a CIDR, an IP address or a host name. */
export function outboundPolicy(mode: OutboundMode = 'allow', allow: readonly string[] = []): OutboundPolicy {
  const allowedNetworks = new BlockList();
  const allowedHosts: string[] = [];
  for (const raw of allow) {
    const entry = raw.trim();
    const [ip, bits, extra] = entry.split('/');
    const family = isIP(ip);
    if (family !== 0 && extra === undefined) {
      const max = family === 4 ? 32 : 128;
      const length = bits === undefined ? max : /^\d+$/.test(bits) ? Number(bits) : NaN;
      if (!(length >= 0 && length <= max)) {
        throw new Error(`'${entry}' is not a valid CIDR: its prefix length must be 0 to ${max}`);
      }
      // one address is stored as the address it is judged as (::ffff:10.0.0.5 as 10.0.0.5)
      const single = effectiveAddress(ip)!;
      if (bits === undefined) allowedNetworks.addAddress(single.address, single.family);
      else allowedNetworks.addSubnet(ip, length, family === 4 ? 'ipv4' : 'ipv6');
    } else if (bits === undefined && HOST_NAME.test(entry) && isIP(entry) === 0) {
      allowedHosts.push(entry.toLowerCase().replace(/\.$/, ''));
    } else {
      const expected = 'a CIDR (10.1.0.0/16), an IP address or a host name (db.internal, *.internal)';
      throw new Error(`'${entry}' is not ${expected}`);
    }
  }
  const frozenHosts = Object.freeze(allowedHosts);
  return Object.freeze({ mode, allow: Object.freeze([...allow]), allowedNetworks, allowedHosts: frozenHosts });
}

/** Whether the operator allows `hostname` by name. */
function hostAllowed(policy: OutboundPolicy, hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  const matches = (entry: string) => (entry.startsWith('*.') ? name.endsWith(entry.slice(1)) : name === entry);
  return policy.allowedHosts.some(matches);
}

/**
 * Whether `policy` refuses a connection to `address`, reached through the name `hostname` (the
 * name the tenant wrote, or the address itself for an IP literal).
 */
export function addressRefusal(
  address: string,
  hostname: string = address,
  policy: OutboundPolicy = currentOutboundPolicy(),
): AddressRefusal | undefined {
  const kind = classifyAddress(address);
  if (kind === 'forbidden') return 'forbidden';
  if (kind === 'public' || policy.mode === 'allow') return undefined;
  const effective = effectiveAddress(address)!;
  if (policy.allowedNetworks.check(effective.address, effective.family)) return undefined;
  if (hostAllowed(policy, hostname.replace(/^\[|\]$/g, ''))) return undefined;
  return 'private';
}

const ALLOW_ALL = outboundPolicy('allow', []);
/** policies of the nodes running in this process, the latest last */
const installed: OutboundPolicy[] = [];

/**
 * The policy of this process: the one its node was started with (app/node.ts), `allow` before
 * any. A process normally runs one node; when several run (tests), the latest started decides.
 */
export function currentOutboundPolicy(): OutboundPolicy {
  return installed[installed.length - 1] ?? ALLOW_ALL;
}

/** Makes `policy` the process's; the returned function removes it again (its node stopped). */
export function installOutboundPolicy(policy: OutboundPolicy): () => void {
  installed.push(policy);
  let removed = false;
  return () => {
    if (removed) return;
    removed = true;
    installed.splice(installed.lastIndexOf(policy), 1);
  };
}

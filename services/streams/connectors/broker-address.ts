import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { refusalReason, refusedAddressError } from '../../../lib/net/outbound-address';
import { StreamsErrors } from '../errors';
import { isLocalAddress } from '../lib/outbound';
import type { ConnectorEnv } from './contract';

/**
 * Where a tenant's broker connector may connect: the outbound policy (lib/net/outbound-policy.ts:
 * never a link-local or metadata address, no private one under deny-private) and none of this
 * node's own ports on a local address, applied to broker addresses. Checked on every
 * connection, after DNS, so a broker that advertises another address (Kafka metadata) or a name
 * that changes is checked too.
 */
export async function checkBrokerAddress(
  host: string,
  port: number,
  env: Pick<ConnectorEnv, 'ownPorts'>,
): Promise<string[]> {
  const bare = host.replace(/^\[|\]$/g, '');
  const addresses = isIP(bare) ? [bare] : (await lookup(bare, { all: true })).map((a) => a.address);
  for (const address of addresses) {
    const refusal = refusedAddressError(bare, address);
    if (refusal) throw StreamsErrors.outboundRefused(`${host}:${port}`, refusalReason(refusal));
    if (env.ownPorts().has(port) && isLocalAddress(address))
      throw StreamsErrors.outboundRefused(`${host}:${port}`, "this node's own port");
  }
  return addresses;
}

/** checks every URL of a connector (nats://, amqp://, mqtt://, tcp://) before connecting */
export async function checkBrokerUrls(
  urls: readonly string[],
  defaultPort: number,
  env: Pick<ConnectorEnv, 'ownPorts'>,
): Promise<void> {
  for (const raw of urls) {
    for (const one of raw
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean)) {
      const url = new URL(one.includes('://') ? one : `tcp://${one}`);
      await checkBrokerAddress(url.hostname, Number(url.port || defaultPort), env);
    }
  }
}

/**
 * A plain-TCP broker URL with its host replaced by the checked address, for clients that resolve
 * names themselves and take no `lookup` (nats, mqtt): the address judged is the address they
 * connect to. A URL of another scheme (TLS, where the name is the certificate's) is only checked.
 */
export async function pinnedBrokerUrl(
  raw: string,
  defaultPort: number,
  plainSchemes: readonly string[],
  env: Pick<ConnectorEnv, 'ownPorts'>,
): Promise<string> {
  const url = new URL(raw.includes('://') ? raw : `tcp://${raw}`);
  const [address] = await checkBrokerAddress(url.hostname, Number(url.port || defaultPort), env);
  if (!plainSchemes.includes(url.protocol) || address === undefined) return raw;
  url.hostname = isIP(address) === 6 ? `[${address}]` : address;
  return raw.includes('://') ? url.toString() : url.host;
}

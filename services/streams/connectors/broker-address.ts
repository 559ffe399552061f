import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { StreamsErrors } from '../errors';
import { isLocalAddress, isMetadataAddress } from '../lib/outbound';
import type { ConnectorEnv } from './contract';

/**
 * Where a tenant's broker connector may connect: the streams' outbound policy (no cloud
 * metadata address, none of this node's own ports on a local address) applied to broker
 * addresses. Checked on every connection, after DNS, so a broker that advertises another
 * address (Kafka metadata) or a name that changes is checked too.
 */
export async function checkBrokerAddress(host: string, port: number, env: Pick<ConnectorEnv, 'ownPorts'>): Promise<string[]> {
  const bare = host.replace(/^\[|\]$/g, '');
  const addresses = isIP(bare) ? [bare] : (await lookup(bare, { all: true })).map((a) => a.address);
  for (const address of addresses) {
    if (isMetadataAddress(address)) throw StreamsErrors.outboundRefused(`${host}:${port}`, 'a metadata address');
    if (env.ownPorts().has(port) && isLocalAddress(address)) throw StreamsErrors.outboundRefused(`${host}:${port}`, "this node's own port");
  }
  return addresses;
}

/** checks every URL of a connector (nats://, amqp://, mqtt://, tcp://) before connecting */
export async function checkBrokerUrls(urls: readonly string[], defaultPort: number, env: Pick<ConnectorEnv, 'ownPorts'>): Promise<void> {
  for (const raw of urls) {
    for (const one of raw.split(',').map((u) => u.trim()).filter(Boolean)) {
      const url = new URL(one.includes('://') ? one : `tcp://${one}`);
      await checkBrokerAddress(url.hostname, Number(url.port || defaultPort), env);
    }
  }
}

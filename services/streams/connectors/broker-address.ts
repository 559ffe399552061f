import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { ConnectorEnv } from './contract';

/**
 * Where a tenant's broker connector may connect: anywhere but cloud metadata addresses and this
 * node's own ports (gateway, dashboard) on a local address, the same rule as the streams'
 * outbound HTTP policy. Checked on every connection, after DNS, so a broker that advertises
 * another address (Kafka metadata) or a name that changes is checked too.
 */
export class BrokerAddressRefused extends Error {
  readonly code = 'GW_ERR_STREAMS_OUTBOUND_REFUSED';
}

function isMetadataAddress(address: string): boolean {
  const a = address.toLowerCase().replace(/^::ffff:/, '');
  if (isIP(a) === 4) return a.startsWith('169.254.') || a === '100.100.100.200';
  return /^fe[89ab][0-9a-f]:/.test(a) || a === 'fd00:ec2::254';
}

function isLocalAddress(address: string): boolean {
  const a = address.toLowerCase().replace(/^::ffff:/, '');
  if (a.startsWith('127.') || a === '::1' || a === '0.0.0.0' || a === '::') return true;
  return Object.values(networkInterfaces()).some((list) => (list ?? []).some((i) => i.address.toLowerCase() === a));
}

/** the addresses host resolves to, each allowed, or throws BrokerAddressRefused */
export async function checkBrokerAddress(host: string, port: number, env: Pick<ConnectorEnv, 'ownPorts'>): Promise<string[]> {
  const bare = host.replace(/^\[|\]$/g, '');
  const addresses = isIP(bare) ? [bare] : (await lookup(bare, { all: true })).map((a) => a.address);
  for (const address of addresses) {
    if (isMetadataAddress(address)) throw new BrokerAddressRefused(`${host}:${port} is a metadata address`);
    if (env.ownPorts.has(port) && isLocalAddress(address)) throw new BrokerAddressRefused(`${host}:${port} is this node's own port`);
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

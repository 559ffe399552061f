import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { lookup as lookupAll } from 'node:dns/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { Agent, request, type Dispatcher } from 'undici';
import { isForbiddenAddress } from '../../../lib/net/outbound-address';
import { readBoundedBytes } from '../../../lib/net/read-bounded';
import { StreamsErrors } from '../errors';

/**
 * Where a tenant's stream may send requests (http_client, http processor, portal_webhook):
 * anywhere but the cloud metadata addresses (link-local 169.254.0.0/16 and fe80::/10,
 * fd00:ec2::254, 100.100.100.200) and this node's own ports (gateway, dashboard) on a local
 * address, which would let a tenant call the management APIs from inside. Checked before each
 * request and again on connection (against DNS answers that change in between).
 */
export interface OutboundPolicy {
  /** ports of this node a stream may not call on a local address (read per request: ports bound at 0 are known late) */
  ownPorts(): ReadonlySet<number>;
}

const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata', 'instance-data']);

/** The node-wide outbound policy (lib/net/outbound-address.ts): link-local, cloud metadata, multicast, unspecified. */
export function isMetadataAddress(address: string): boolean {
  return isForbiddenAddress(address);
}

export function isLocalAddress(address: string): boolean {
  const a = address.toLowerCase().replace(/^::ffff:/, '');
  if (a.startsWith('127.') || a === '::1' || a === '0.0.0.0' || a === '::') return true;
  return Object.values(networkInterfaces()).some((list) => (list ?? []).some((i) => i.address.toLowerCase() === a));
}

/** Refuses a URL of a metadata address or of this node's own ports; returns the parsed URL. */
export async function checkOutbound(raw: string, policy: OutboundPolicy): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw StreamsErrors.outboundRefused(raw, 'not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw StreamsErrors.outboundRefused(raw, 'only http and https URLs');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (METADATA_HOSTS.has(host.toLowerCase())) throw StreamsErrors.outboundRefused(raw, 'a metadata service');
  const addresses = isIP(host) ? [host] : (await lookupAll(host, { all: true }).catch(() => [] as LookupAddress[])).map((a) => a.address);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  for (const address of addresses) {
    if (isMetadataAddress(address)) throw StreamsErrors.outboundRefused(raw, 'a metadata address');
    if (policy.ownPorts().has(port) && isLocalAddress(address)) throw StreamsErrors.outboundRefused(raw, "this node's own port");
  }
  return url;
}

/** Connections re-check the DNS answer, so a name that changed to a metadata address is refused. */
const agent = new Agent({
  connect: {
    lookup: (hostname, options, callback) =>
      dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
        if (err) return callback(err, '', 4);
        const bad = addresses.find((a) => isMetadataAddress(a.address));
        if (bad) return callback(new Error(`refused: ${hostname} resolves to a metadata address`), '', 4);
        if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
        callback(null, addresses[0].address, addresses[0].family);
      }),
  },
});

export interface OutboundRequest {
  method: string;
  headers: Record<string, string>;
  body?: Buffer | string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** One checked outbound request; the body is read whole. */
/** A stream's HTTP call answers one message: bodies above this fail the call instead of filling the node's memory. */
const MAX_OUTBOUND_RESPONSE_BYTES = 16 * 1024 * 1024;

export async function outboundCall(url: string, policy: OutboundPolicy, options: OutboundRequest): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  await checkOutbound(url, policy);
  const response = await request(url, {
    method: options.method as Dispatcher.HttpMethod,
    headers: options.headers,
    body: options.method === 'GET' || options.method === 'HEAD' ? undefined : options.body,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    signal: options.signal,
    dispatcher: agent,
  });
  const body = await readBoundedBytes(response.body, MAX_OUTBOUND_RESPONSE_BYTES);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(response.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  return { status: response.statusCode, headers, body };
}

export function outboundAgent(): Dispatcher {
  return agent;
}

import type { LookupAddress } from 'node:dns';
import { lookup as lookupAll } from 'node:dns/promises';
import { isIP } from 'node:net';
import { request, type Agent, type Dispatcher } from 'undici';
import { classifyAddress } from '../../../lib/net/address-ranges';
import { guardedLookup, refusalReason, refusedAddressError } from '../../../lib/net/outbound-address';
import { OutboundAddressRefused } from '../../../lib/net/outbound-address';
import type { Resolver } from '../../../lib/net/outbound-address';
import { isLocalAddress, OwnPortRefused } from '../../../lib/net/own-ports';
import { tenantAgent } from '../../../lib/net/tenant-agent';
import { readBoundedBytes } from '../../../lib/net/read-bounded';
import { isGwError } from '../../../lib/errors';
import { StreamsErrors } from '../errors';

/**
 * Where a tenant's stream may send requests (http_client, http processor, portal_webhook):
 * anywhere the node's outbound policy allows (lib/net/outbound-policy.ts: never the cloud
 * metadata addresses, no private ones under deny-private), and never this node's own ports
 * (gateway, dashboard) on a local address, which would let a tenant call the management APIs
 * from inside. Checked before each request and, decisively, on the address each connection
 * reached (against DNS answers that change in between).
 */
export interface OutboundPolicy {
  /** ports of this node a stream may not call on a local address (read per request: ports bound at 0 are known late) */
  ownPorts(): ReadonlySet<number>;
  /** name resolution; the system's by default (tests inject one that answers differently each time) */
  resolve?: Resolver;
}

const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata', 'instance-data']);

/** The always-refused addresses of the outbound policy: link-local, cloud metadata, multicast, unspecified. */
export function isMetadataAddress(address: string): boolean {
  return classifyAddress(address) === 'forbidden';
}

export { isLocalAddress };

/** Refuses a URL of a metadata address or of this node's own ports; returns the parsed URL. */
export async function checkOutbound(raw: string, policy: OutboundPolicy): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw StreamsErrors.outboundRefused(raw, 'not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw StreamsErrors.outboundRefused(raw, 'only http and https URLs');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (METADATA_HOSTS.has(host.toLowerCase())) throw StreamsErrors.outboundRefused(raw, 'a metadata service');
  const resolveAll = (name: string) =>
    policy.resolve
      ? new Promise<LookupAddress[]>((resolve, reject) =>
          policy.resolve!(name, { all: true }, (err, list) => (err ? reject(err) : resolve(list))),
        )
      : lookupAll(name, { all: true });
  const addresses = isIP(host)
    ? [host]
    : (await resolveAll(host).catch(() => [] as LookupAddress[])).map((a) => a.address);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  for (const address of addresses) {
    const refusal = refusedAddressError(host, address);
    if (refusal) {
      const why = refusal.reason === 'forbidden' ? 'a metadata address' : refusalReason(refusal);
      throw StreamsErrors.outboundRefused(raw, why);
    }
    if (policy.ownPorts().has(port) && isLocalAddress(address))
      throw StreamsErrors.outboundRefused(raw, "this node's own port");
  }
  return url;
}

/**
 * The check above gives a clear error early; this one decides. Each policy's connections resolve
 * the name once, in the socket's lookup, and the address connected to is judged (forbidden
 * address, or one of the policy's own ports on a local address: lib/net/tenant-agent.ts), so a
 * name a rebinding DNS server answers differently the second time is still refused.
 */
const agents = new WeakMap<OutboundPolicy, Agent>();
function agentFor(policy: OutboundPolicy): Agent {
  let agent = agents.get(policy);
  if (!agent) {
    agent = tenantAgent({ ownPorts: () => policy.ownPorts(), lookup: guardedLookup(policy.resolve) });
    agents.set(policy, agent);
  }
  return agent;
}

/**
 * The outbound policy's refusal behind a failed call, if that is why it failed: the early check
 * above, or the connection's own (a refused address, this node's own port), which the HTTP
 * client may hand back wrapped. Asking again can not succeed, so callers never retry one.
 */
export function outboundRefusal(err: unknown): Error | undefined {
  for (let at: unknown = err, depth = 0; at instanceof Error && depth < 4; at = at.cause, depth++) {
    if (at instanceof OutboundAddressRefused || at instanceof OwnPortRefused) return at;
    if (isGwError(at, 'GW_ERR_STREAMS_OUTBOUND_REFUSED')) return at;
  }
  return undefined;
}

export interface OutboundRequest {
  method: string;
  headers: Record<string, string>;
  body?: Buffer | string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** A stream's HTTP call answers one message: bodies above this fail the call instead of filling the node's memory. */
const MAX_OUTBOUND_RESPONSE_BYTES = 16 * 1024 * 1024;

export interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** One checked outbound request; the body is read whole. */
export async function outboundCall(
  url: string,
  policy: OutboundPolicy,
  options: OutboundRequest,
): Promise<OutboundResponse> {
  await checkOutbound(url, policy);
  const response = await request(url, {
    method: options.method,
    headers: options.headers,
    body: options.method === 'GET' || options.method === 'HEAD' ? undefined : options.body,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    signal: options.signal,
    dispatcher: agentFor(policy),
  });
  const body = await readBoundedBytes(response.body, MAX_OUTBOUND_RESPONSE_BYTES);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(response.headers))
    if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  return { status: response.statusCode, headers, body };
}

export function outboundAgent(policy: OutboundPolicy): Dispatcher {
  return agentFor(policy);
}

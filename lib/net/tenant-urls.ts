import { isForbiddenAddress, literalHostRefusal, refusalReason } from './outbound-address';

/**
 * Tenant-supplied URLs the gateway calls by itself (service discovery, uptime tests) follow the
 * one outbound policy of lib/net/outbound-policy.ts: never a link-local (cloud metadata) address,
 * and no private one when the operator refuses those.
 */
export function refusedAddress(address: string): boolean {
  return isForbiddenAddress(address);
}

/** Refuses, before any connection, a URL that is not http(s) or names a refused address or metadata host. */
export function checkOutboundUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`'${raw}' is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`'${raw}' must be an http:// or https:// URL`);
  const refusal = literalHostRefusal(url);
  if (refusal) {
    const what = refusal.reason === 'forbidden' ? 'a link-local address' : refusalReason(refusal);
    throw new Error(`'${raw}' names ${what}, which gw does not call`);
  }
  if (url.hostname.toLowerCase() === 'metadata.google.internal') {
    throw new Error(`'${raw}' names a cloud metadata service, which gw does not call`);
  }
  return url;
}

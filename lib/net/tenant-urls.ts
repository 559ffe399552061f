import { isIP } from 'node:net';
import { isForbiddenAddress } from './outbound-address';

/**
 * Tenant-supplied URLs the gateway calls by itself (service discovery, uptime tests) must not
 * reach a link-local address, where clouds serve instance metadata and credentials: the one
 * outbound policy of lib/net/outbound-address.ts.
 */
export function refusedAddress(address: string): boolean {
  return isForbiddenAddress(address);
}

/** Refuses a URL that is not http(s) or names a link-local address or a metadata host literally (before any connection). */
export function checkOutboundUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`'${raw}' is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`'${raw}' must be an http:// or https:// URL`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && refusedAddress(host)) throw new Error(`'${raw}' names a link-local address, which gw does not call`);
  if (host.toLowerCase() === 'metadata.google.internal') throw new Error(`'${raw}' names a cloud metadata service, which gw does not call`);
  return url;
}

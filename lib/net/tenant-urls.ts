import { isIP } from 'node:net';

/**
 * Tenant-supplied URLs the gateway calls by itself (service discovery, uptime tests) must not
 * reach a link-local address, where clouds serve instance metadata and credentials.
 */
export function refusedAddress(address: string): boolean {
  const lower = address.toLowerCase();
  if (isIP(lower) === 4) return lower.startsWith('169.254.') || lower === '100.100.100.200';
  const mapped = lower.startsWith('::ffff:') ? lower.slice(7) : undefined;
  if (mapped && isIP(mapped) === 4) return refusedAddress(mapped);
  return /^fe[89ab][0-9a-f]:/.test(lower) || lower === 'fd00:ec2::254';
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

import { lookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Agent } from 'undici';

/**
 * Requests to tenant-supplied URLs (service discovery, uptime tests) never reach a link-local
 * address, where clouds serve instance metadata and credentials. The check happens on the
 * address actually connected to (a lookup hook of the connection), so a name that resolves
 * differently on a second lookup can not slip past it.
 */
export function refusedAddress(address: string): boolean {
  const lower = address.toLowerCase();
  if (isIP(lower) === 4) return lower.startsWith('169.254.') || lower === '100.100.100.200';
  const mapped = lower.startsWith('::ffff:') ? lower.slice(7) : undefined;
  if (mapped && isIP(mapped) === 4) return refusedAddress(mapped);
  return /^fe[89ab][0-9a-f]:/.test(lower) || lower === 'fd00:ec2::254';
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

function guardedLookup(hostname: string, options: object, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const list = addresses as LookupAddress[];
    if (list.some((entry) => refusedAddress(entry.address))) {
      const refused = Object.assign(new Error(`${hostname} resolves to a link-local address, which gw does not call`), { code: 'EREFUSEDADDRESS' });
      return callback(refused, []);
    }
    const wantsAll = (options as { all?: boolean }).all === true;
    if (wantsAll) return callback(null, list);
    callback(null, list[0].address, list[0].family);
  });
}

/** The agent for tenant-supplied URLs; an IP literal is checked before connecting. */
export const outboundAgent = new Agent({ connect: { lookup: guardedLookup as never }, keepAliveTimeout: 10_000 });

/** Refuses a URL that names a link-local address literally (before any connection). */
export function checkOutboundUrl(raw: string): URL {
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`'${raw}' must be an http:// or https:// URL`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && refusedAddress(host)) throw new Error(`'${raw}' names a link-local address, which gw does not call`);
  if (host.toLowerCase() === 'metadata.google.internal') throw new Error(`'${raw}' names a cloud metadata service, which gw does not call`);
  return url;
}

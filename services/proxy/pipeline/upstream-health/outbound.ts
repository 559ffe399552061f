import { lookup, type LookupAddress } from 'node:dns';
import { Agent } from 'undici';
import { refusedAddress } from '../../../../lib/net/tenant-urls';

export { checkOutboundUrl } from '../../../../lib/net/tenant-urls';

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

/**
 * The agent for tenant-supplied URLs (service discovery, uptime tests): the link-local check
 * happens on the address actually connected to (a lookup hook of the connection), so a name
 * that resolves differently on a second lookup can not slip past it. IP literals skip the
 * lookup: checkOutboundUrl refuses those before the request.
 */
export const outboundAgent = new Agent({ connect: { lookup: guardedLookup as never }, keepAliveTimeout: 10_000 });

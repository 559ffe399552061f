import { Agent } from 'undici';
import { guardedLookup } from '../../../../lib/net/outbound-address';

export { checkOutboundUrl } from '../../../../lib/net/tenant-urls';

/**
 * The agent for tenant-supplied URLs (service discovery, uptime tests): the link-local check
 * happens on the address actually connected to (a lookup hook of the connection), so a name
 * that resolves differently on a second lookup can not slip past it. IP literals skip the
 * lookup: checkOutboundUrl refuses those before the request.
 */
export const outboundAgent = new Agent({ connect: { lookup: guardedLookup() as never }, keepAliveTimeout: 10_000 });

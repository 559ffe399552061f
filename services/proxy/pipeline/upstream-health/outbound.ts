import { tenantAgent } from '../../../../lib/net/tenant-agent';

export { checkOutboundUrl } from '../../../../lib/net/tenant-urls';

/**
 * The agent for tenant-supplied URLs (service discovery, uptime tests): the link-local and
 * own-port checks happen on the address actually connected to (lib/net/tenant-agent.ts), so a
 * name that resolves differently on a second lookup can not slip past them.
 */
export const outboundAgent = tenantAgent({ keepAliveTimeout: 10_000 });

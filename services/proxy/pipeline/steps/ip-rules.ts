import { BlockList, isIP } from 'node:net';
import type { ApiDefinition } from '../../../../contracts/apis/api-definition';
import { DONE, type Step } from '../compose';
import { GatewayMessages, sendGatewayError } from '../gateway-errors';

/**
 * `enable_ip_whitelisting` + `allowed_ips` and `enable_ip_blacklisting` + `blacklisted_ips`:
 * single addresses or CIDR ranges, IPv4 and IPv6. Undefined when the API uses neither.
 */
export function ipRulesStep(definition: ApiDefinition): Step | undefined {
  const allowed = definition.enable_ip_whitelisting === true ? addressList(definition.allowed_ips) : undefined;
  const blocked = definition.enable_ip_blacklisting === true ? addressList(definition.blacklisted_ips) : undefined;
  if (!allowed && !blocked) return undefined;
  return (ctx) => {
    const address = normalise(ctx.clientIp);
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    const valid = isIP(address) !== 0;
    if (
      (allowed && (!valid || !allowed.check(address, family))) ||
      (blocked && valid && blocked.check(address, family))
    ) {
      sendGatewayError(ctx.res, 403, GatewayMessages.ipDisallowed);
      return DONE;
    }
  };
}

function addressList(entries: unknown): BlockList {
  const list = new BlockList();
  for (const entry of Array.isArray(entries) ? entries : []) {
    const [address, prefix] = String(entry).trim().split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (isIP(address) === 0) throw new Error(`'${entry}' is not an IP address or CIDR range`);
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

/** `::ffff:10.0.0.1` (an IPv4 client on a dual-stack socket) is checked as `10.0.0.1`. */
function normalise(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

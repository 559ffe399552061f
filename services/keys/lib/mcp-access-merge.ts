import type {
  AccessDefinition,
  McpAccessList,
  McpAccessRights,
  McpPrimitiveLimit,
} from '../../../contracts/keys/session';

/**
 * The MCP fields of two policies' access to one API, merged as the reference merges them: the
 * allowed and blocked lists of each kind unioned (an empty side leaves the other as it is), and
 * per primitive the limit with the higher rate (a shorter `per / rate`) kept.
 */
export function mergeMcpAccess(into: AccessDefinition, from: AccessDefinition): void {
  const rights = mergeRights(into.mcp_access_rights, from.mcp_access_rights);
  if (rights) into.mcp_access_rights = rights;
  const limits = mergeLimits(into.mcp_primitives, from.mcp_primitives);
  if (limits) into.mcp_primitives = limits;
}

function mergeRights(a: McpAccessRights | undefined, b: McpAccessRights | undefined): McpAccessRights | undefined {
  if (!b) return a;
  if (!a) return b;
  const out: McpAccessRights = {};
  for (const kind of ['tools', 'resources', 'prompts'] as const) {
    const merged = mergeList(a[kind], b[kind]);
    if (merged) out[kind] = merged;
  }
  return out;
}

function mergeList(a: McpAccessList | undefined, b: McpAccessList | undefined): McpAccessList | undefined {
  const empty = (list: McpAccessList | undefined) => !list?.allowed?.length && !list?.blocked?.length;
  if (empty(b)) return a;
  if (empty(a)) return b;
  return {
    allowed: [...new Set([...(a!.allowed ?? []), ...(b!.allowed ?? [])])],
    blocked: [...new Set([...(a!.blocked ?? []), ...(b!.blocked ?? [])])],
  };
}

/** Seconds between two calls a limit lets through; 0 for no limit (which any limit replaces). */
const interval = (limit: McpPrimitiveLimit['limit']) => (limit.rate > 0 && limit.per > 0 ? limit.per / limit.rate : 0);

function mergeLimits(
  a: McpPrimitiveLimit[] | undefined,
  b: McpPrimitiveLimit[] | undefined,
): McpPrimitiveLimit[] | undefined {
  if (!b?.length) return a;
  if (!a?.length) return b;
  const byPrimitive = new Map<string, McpPrimitiveLimit>();
  for (const entry of a) byPrimitive.set(`${entry.type}\u0000${entry.name}`, entry);
  for (const entry of b) {
    const key = `${entry.type}\u0000${entry.name}`;
    const current = byPrimitive.get(key);
    if (!current || interval(current.limit) === 0 || interval(entry.limit) < interval(current.limit))
      byPrimitive.set(key, entry);
  }
  return [...byPrimitive.values()];
}

import type { AccessDefinition, AccessLimit, AllowedUrl, Policy, Session } from '../../../contracts/keys/session';
import { mergeMcpAccess } from './mcp-access-merge';

/**
 * The effective session of a key: its own fields, overwritten by what its policies set, as the
 * reference gateway merges them:
 * - access rights are the union of the policies' per API (versions, allowed URLs and their
 *   methods unioned; a per-API limit taken from the policy with the higher rate; MCP access lists
 *   unioned and per-primitive limits taken from the higher rate, mcp-access-merge.ts);
 * - rate and per come from the policy with the highest effective rate (rate / per);
 * - quota, throttle and query depth take the most generous value (-1 = unlimited wins);
 * - one inactive policy (`active: false` or `is_inactive: true`) makes the key inactive; tags are unioned.
 * Each access right says which rate-limit counter it uses (`allowance_scope`): the key's own
 * counter, shared across the APIs, unless the API has a limit of its own.
 */
export function applyPolicies(session: Session, policies: Policy[]): Session {
  if (policies.length === 0) return withScopes({ ...session });
  const effective: Session = { ...session, access_rights: {} };
  let bestRate: Policy | undefined;
  for (const policy of policies) {
    mergeAccessRights(effective.access_rights!, policy.access_rights ?? {});
    if (policy.rate > 0 && policy.per > 0 && (!bestRate || policy.rate / policy.per > bestRate.rate / bestRate.per))
      bestRate = policy;
  }
  if (bestRate) {
    effective.rate = bestRate.rate;
    effective.per = bestRate.per;
    effective.allowance = bestRate.rate;
  }
  const quotaPolicy = mostGenerous(policies, (p) => p.quota_max);
  if (quotaPolicy) {
    effective.quota_max = quotaPolicy.quota_max;
    effective.quota_renewal_rate = quotaPolicy.quota_renewal_rate;
  }
  effective.throttle_interval = Math.max(...policies.map((p) => p.throttle_interval ?? -1));
  effective.throttle_retry_limit = Math.max(...policies.map((p) => p.throttle_retry_limit ?? -1));
  const depthPolicy = mostGenerous(policies, (p) => p.max_query_depth);
  if (depthPolicy) effective.max_query_depth = depthPolicy.max_query_depth;
  if (policies.some((p) => p.active === false || p.is_inactive === true)) effective.is_inactive = true;
  effective.tags = [...new Set([...(session.tags ?? []), ...policies.flatMap((p) => p.tags ?? [])])];
  return withScopes(effective);
}

/** The policy with the highest value of a limit, where -1 means unlimited and wins. */
function mostGenerous(policies: Policy[], value: (policy: Policy) => number | undefined): Policy | undefined {
  const rank = (limit: number) => (limit === -1 ? Infinity : limit);
  let best: Policy | undefined;
  for (const policy of policies) {
    const candidate = value(policy);
    if (candidate !== undefined && (!best || rank(candidate) > rank(value(best)!))) best = policy;
  }
  return best;
}

function mergeAccessRights(into: Record<string, AccessDefinition>, from: Record<string, AccessDefinition>): void {
  for (const [apiId, access] of Object.entries(from)) {
    const existing = into[apiId];
    if (!existing) {
      into[apiId] = {
        ...access,
        api_id: access.api_id ?? apiId,
        versions: [...(access.versions ?? [])],
        allowed_urls: (access.allowed_urls ?? []).map((u) => ({ ...u })),
      };
      continue;
    }
    existing.versions = union(existing.versions ?? [], access.versions ?? []);
    existing.allowed_urls = mergeUrls(existing.allowed_urls ?? [], access.allowed_urls ?? []);
    existing.restricted_types = [...(existing.restricted_types ?? []), ...(access.restricted_types ?? [])];
    existing.allowed_types = [...(existing.allowed_types ?? []), ...(access.allowed_types ?? [])];
    existing.disable_introspection = existing.disable_introspection === true || access.disable_introspection === true;
    existing.limit = higherLimit(existing.limit, access.limit);
    mergeMcpAccess(existing, access);
  }
}

function mergeUrls(a: AllowedUrl[], b: AllowedUrl[]): AllowedUrl[] {
  const byUrl = new Map<string, AllowedUrl>();
  for (const entry of [...a, ...b]) {
    const existing = byUrl.get(entry.url);
    byUrl.set(
      entry.url,
      existing
        ? { url: entry.url, methods: union(existing.methods ?? [], entry.methods ?? []) }
        : { url: entry.url, methods: [...(entry.methods ?? [])] },
    );
  }
  return [...byUrl.values()];
}

function higherLimit(
  a: AccessLimit | null | undefined,
  b: AccessLimit | null | undefined,
): AccessLimit | null | undefined {
  if (!a || !(a.rate && a.per)) return b ?? a;
  if (!b || !(b.rate && b.per)) return a;
  return b.rate / b.per > a.rate / a.per ? b : a;
}

function withScopes(session: Session): Session {
  const rights: Record<string, AccessDefinition> = {};
  for (const [apiId, access] of Object.entries(session.access_rights ?? {})) {
    const ownLimit = Boolean(access.limit && access.limit.rate && access.limit.per);
    rights[apiId] = { ...access, api_id: access.api_id ?? apiId, allowance_scope: ownLimit ? apiId : '' };
  }
  return { ...session, access_rights: rights };
}

function union(a: string[], b: string[]): string[] {
  return [...new Set([...a, ...b])];
}

import type { McpPrimitiveRule } from '../../../../contracts/apis/api-definition';
import type { McpPrimitiveLimit } from '../../../../contracts/keys/session';
import {
  quotaCounter,
  type LimiterCheckParams,
  type LimiterCheckResult,
  type LimiterEvent,
} from '../../../../contracts/limiter/actions';
import type { HotCall } from '../../../../lib/bus/hot-call';
import { primitiveLabel, type PrimitiveUse } from './primitive';

/**
 * What the limiter said about one primitive call: through, or which limit refused it. The
 * limiter hands back the RatelimitExceeded or QuotaExceeded event of the key's limits (given to
 * `report`, published with the request's details); the API's limit (`api_rate`) has none.
 */
export type LimitOutcome = 'ok' | 'api_rate' | 'key_rate' | 'quota' | 'unavailable';

export interface PrimitiveLimitScope {
  apiId: string;
  orgId: string;
  keyHash: string | undefined;
  /** the key's `mcp_primitives` on this API */
  keyLimits: McpPrimitiveLimit[] | undefined;
}

/**
 * Counts one call of a primitive against the API's rate limit for it (shared by every caller)
 * and the key's limit and quota for it, through the limiter as endpoint limits are: counters
 * named per API, key and primitive, so they never mix with the API's or the key's own.
 */
export async function checkPrimitiveLimits(
  check: HotCall,
  scope: PrimitiveLimitScope,
  use: PrimitiveUse,
  apiRule: McpPrimitiveRule | undefined,
  report: (event: LimiterEvent) => void,
): Promise<LimitOutcome> {
  const label = primitiveLabel(use);
  const apiRate = apiRule?.rate_limit;
  const own = scope.keyHash
    ? scope.keyLimits?.find((entry) => entry.type === use.kind && entry.name === use.name)
    : undefined;
  const params: LimiterCheckParams = {
    api_id: scope.apiId,
    org_id: scope.orgId,
    key_hash: scope.keyHash,
    events: 'returned',
  };
  if (apiRate && apiRate.rate > 0 && apiRate.per > 0)
    params.api_limit = { counter: `api:${scope.apiId}:mcp:${label}`, rate: apiRate.rate, per: apiRate.per };
  if (own && scope.keyHash) {
    const { rate, per, quota_max, quota_renewal_rate } = own.limit;
    if (rate > 0 && per > 0)
      params.key_limit = { counter: `key:${scope.keyHash}:${scope.apiId}:mcp:${label}`, rate, per };
    if (typeof quota_max === 'number' && quota_max >= 0)
      params.quota = {
        counter: quotaCounter(scope.keyHash, `${scope.apiId}:mcp:${label}`),
        max: quota_max,
        renewal_rate: quota_renewal_rate ?? -1,
      };
  }
  if (!params.api_limit && !params.key_limit && !params.quota) return 'ok';
  let result: LimiterCheckResult;
  try {
    result = await check('limiter.check', params);
  } catch {
    return 'unavailable';
  }
  if (result.ok) return 'ok';
  if (result.reason !== 'store_unavailable' && result.event) report(result.event);
  if (result.reason === 'quota') return 'quota';
  if (result.reason === 'api_rate' || result.reason === 'key_rate') return result.reason;
  return 'unavailable';
}

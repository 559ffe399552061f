/**
 * `limiter.check`: the rate limits and quota of one request, decided in order: the API's
 * limit (it takes precedence and protects the upstream), then the key's (or the endpoint's),
 * then the quota. A quota is only spent by a request every rate limit let through.
 */
import type { GatewayEventName } from '../events';

export interface SmoothingSpec {
  enabled: boolean;
  threshold: number;
  step: number;
  trigger: number;
  delay: number;
}

export interface RateSpec {
  /** the counter: requests that share it share the allowance */
  counter: string;
  rate: number;
  /** window in seconds */
  per: number;
  smoothing?: SmoothingSpec;
}

export interface QuotaSpec {
  counter: string;
  max: number;
  /** seconds after which the quota renews; 0 or less: never */
  renewal_rate: number;
}

export interface LimiterCheckParams {
  api_id: string;
  org_id: string;
  key_hash?: string;
  api_limit?: RateSpec;
  key_limit?: RateSpec;
  quota?: QuotaSpec;
  /** a throttled retry: the API limit already let this request through */
  retry?: boolean;
  /**
   * whose limits these are: `org` checks an organisation session's rate limit (`key_limit`) and
   * quota, and reports OrgRateLimitExceeded / OrgQuotaExceeded instead of the key's events
   */
  scope?: 'key' | 'org';
  /**
   * `returned`: a refusal's event (RatelimitExceeded, QuotaExceeded, Org…) comes back in the
   * result for the caller to emit with the request's details (path, client address, trace);
   * otherwise the limiter emits it itself.
   */
  events?: 'returned';
}

/** The event of a refusal, returned to a caller that asked for it (`events: 'returned'`). */
export interface LimiterEvent {
  event: GatewayEventName;
  message: string;
  meta: Record<string, unknown>;
}

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** epoch seconds when the window (or quota period) ends */
  reset: number;
}

export type LimiterCheckResult =
  | { ok: true; rate?: RateLimitState; quota?: RateLimitState }
  | {
      ok: false;
      reason: 'api_rate' | 'key_rate' | 'quota';
      rate?: RateLimitState;
      quota?: RateLimitState;
      event?: LimiterEvent;
    }
  | { ok: false; reason: 'store_unavailable'; message: string };

export interface LimiterQuotaParams {
  counter: string;
  max: number;
  renewal_rate: number;
}

/** `limiter.quotaState`: what is left of a quota and when it renews (epoch seconds), as a session shows it. */
export interface LimiterQuotaResult {
  quota_remaining: number;
  quota_renews: number;
}

/** The `limiter.*` actions: params and result of each (see contracts/actions.ts). */
export interface LimiterActions {
  'limiter.check': { params: LimiterCheckParams; result: LimiterCheckResult };
  'limiter.quotaState': { params: LimiterQuotaParams; result: LimiterQuotaResult };
}

/** Load one gateway node reports to the others, for the distributed rate limiter. */
export const DRL_LOAD = 'limiter.drl.load';
export interface DrlLoadEvent {
  node_id: string;
  /** requests per second this node checked, smoothed */
  load: number;
  /**
   * the host whose workers share their counters and buckets (the main thread's node id), when
   * this node is a gateway worker; the limiter counts the workers of a host as one participant
   */
  host_id?: string;
}

/** The counter of a key's quota: per key, or per key and API when that API has a limit of its own. */
export function quotaCounter(keyHash: string, apiId?: string): string {
  return apiId ? `quota:${keyHash}:${apiId}` : `quota:${keyHash}`;
}

/**
 * The counters of an organisation session's rate limit and quota, in their own namespace (a key's
 * are `key:…` and `quota:…`). `epoch` changes when the quota is reset, which starts new counters.
 */
export function orgRateCounter(orgId: string, epoch: number): string {
  return `org-rate:${epoch}:${orgId}`;
}
export function orgQuotaCounter(orgId: string, epoch: number): string {
  return `org-quota:${epoch}:${orgId}`;
}

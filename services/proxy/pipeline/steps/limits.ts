import type { LoggerInstance } from 'moleculer';
import type { ApiDefinition } from '../../../../contracts/apis/api-definition';
import type { AccessLimit, Session } from '../../../../contracts/keys/session';
import {
  quotaCounter,
  type LimiterCheckParams,
  type LimiterCheckResult,
  type QuotaSpec,
  type RateLimitState,
  type RateSpec,
  type SmoothingSpec,
} from '../../../../contracts/limiter/actions';
import { DONE, type Step } from '../compose';
import { GatewayMessages } from '../gateway-errors';
import { checkLimits, reportRefusal } from './limiter-check';
import { refuse } from '../refuse';
import type { RequestContext } from '../request-context';
import type { HotCall } from '../../../../lib/bus/hot-call';
import type { EmitRequestEvent } from '../request-events';

export interface LimitsStepDeps {
  /** `limiter.check`, in process when this node runs the limiter */
  check: HotCall;
  logger: LoggerInstance;
  /** what X-RateLimit-* describe */
  responseHeaders: 'quotas' | 'rate_limits' | 'none';
  emitEvent: EmitRequestEvent;
}

/**
 * Rate limits, throttling and quotas (docs/limits.md), decided by the `limiter` service:
 * the API's `global_rate_limit`; the key's limit (per API from `access_rights[*].limit`, else
 * the session's rate and per), or the version's `extended_paths.rate_limit` entry that matches;
 * then the key's quota. `disable_rate_limit` turns the rate limits off, not the quota;
 * `disable_quota` turns the quota off. A key
 * over its limit is held and retried when its throttle settings allow.
 */
export function limitsStep(definition: ApiDefinition, deps: LimitsStepDeps): Step {
  const apiId = definition.api_id;
  const ratesOff = definition.disable_rate_limit === true;
  const quotaOff = definition.disable_quota === true;
  const global = definition.global_rate_limit as { rate?: number; per?: number } | undefined;
  const apiLimit: RateSpec | undefined =
    !ratesOff && positive(global?.rate) && positive(global?.per)
      ? { counter: `api:${apiId}`, rate: global!.rate!, per: global!.per! }
      : undefined;
  /**
   * A session's checks on this API when no endpoint limit applies, per session object: a cached
   * session is the same object on every request of its key (and a changed key a new object), so
   * its busy keys get the same counters' names (hashed once by the limiter's maps) and no new
   * objects per request.
   */
  const bySession = new WeakMap<Session, { keyHash: string | undefined; checks: SessionChecks }>();
  const checksOf = (
    ctx: RequestContext,
    session: Session | undefined,
    endpoint: EndpointLimit | undefined,
  ): SessionChecks => {
    const access = session?.access_rights?.[apiId];
    const own = access?.limit && positive(access.limit.rate) && positive(access.limit.per) ? access.limit : undefined;
    const params: LimiterCheckParams = {
      api_id: apiId,
      org_id: definition.org_id,
      key_hash: ctx.keyHash,
      events: 'returned',
      api_limit: apiLimit,
      key_limit: ratesOff ? undefined : keyLimit(ctx, session, own, own ? `:${apiId}` : '', endpoint),
      quota:
        !quotaOff && session && ctx.keyHash
          ? quotaOf(own ?? session, quotaCounter(ctx.keyHash, own ? apiId : undefined))
          : undefined,
    };
    return {
      params: params.api_limit || params.key_limit || params.quota ? params : undefined,
      limits: own ?? session ?? {},
    };
  };
  // Synchronous when there is nothing to check, so such requests stay off the promise path.
  return (ctx) => {
    if (ctx.endpoint.kind === 'ignored') return;
    const session = ctx.session;
    const endpoint = ratesOff ? undefined : ctx.version?.rateLimitFor(ctx.req.method ?? 'GET', ctx.relativePath);
    let checks: SessionChecks;
    // A plugin's session may be changed in place by the plugin: never kept.
    if (endpoint || !session || ctx.sessionFromPlugin) checks = checksOf(ctx, session, endpoint);
    else {
      const known = bySession.get(session);
      if (known && known.keyHash === ctx.keyHash) checks = known.checks;
      else bySession.set(session, { keyHash: ctx.keyHash, checks: (checks = checksOf(ctx, session, undefined)) });
    }
    if (!checks.params) return;
    return enforce(ctx, deps, checks.params, checks.limits);
  };
}

/** What the limiter is asked for a request (undefined: nothing to check), and the limits whose throttle settings apply. */
interface SessionChecks {
  params: LimiterCheckParams | undefined;
  limits: AccessLimit | Session;
}

type EndpointLimit = NonNullable<ReturnType<NonNullable<RequestContext['version']>['rateLimitFor']>>;

/**
 * Asks the limiter and answers a refusal. Synchronous when the limiter answers at once (this
 * node's limiter with counters in memory): no promise on the request's way then.
 */
function enforce(
  ctx: RequestContext,
  deps: LimitsStepDeps,
  params: LimiterCheckParams,
  limits: AccessLimit | Session,
): typeof DONE | void | Promise<typeof DONE | void> {
  const result = checkLimits(deps.check, params);
  if (result instanceof Promise) return result.then((settled) => decide(ctx, deps, params, limits, settled));
  return decide(ctx, deps, params, limits, result);
}

function decide(
  ctx: RequestContext,
  deps: LimitsStepDeps,
  params: LimiterCheckParams,
  limits: AccessLimit | Session,
  result: LimiterCheckResult,
): typeof DONE | void | Promise<typeof DONE | void> {
  reportRefusal(ctx, deps, result);
  if (!result.ok && result.reason === 'key_rate' && throttleOf(limits))
    return throttled(ctx, deps, params, throttleOf(limits)!, result);
  return answer(ctx, deps, result);
}

/** A key over its rate limit with throttling on: held and asked again, up to its retry limit. */
async function throttled(
  ctx: RequestContext,
  deps: LimitsStepDeps,
  params: LimiterCheckParams,
  throttle: { intervalMs: number; retries: number },
  first: LimiterCheckResult,
): Promise<typeof DONE | void> {
  let result = first;
  for (let attempt = 0; attempt < throttle.retries && !result.ok && result.reason === 'key_rate'; attempt++) {
    if (!(await held(ctx, throttle.intervalMs))) return DONE;
    result = await checkLimits(deps.check, { ...params, retry: true });
    reportRefusal(ctx, deps, result);
  }
  return answer(ctx, deps, result);
}

function answer(ctx: RequestContext, deps: LimitsStepDeps, result: LimiterCheckResult): typeof DONE | void {
  if (result.ok) {
    setRateHeaders(
      ctx,
      deps.responseHeaders === 'quotas'
        ? result.quota
        : deps.responseHeaders === 'rate_limits'
          ? result.rate
          : undefined,
    );
    return;
  }
  switch (result.reason) {
    case 'api_rate':
      return refuse(ctx, 429, GatewayMessages.apiRateLimited);
    case 'key_rate':
      return refuse(ctx, 429, GatewayMessages.rateLimited);
    case 'quota':
      return refuse(ctx, 403, GatewayMessages.quotaExceeded);
    default:
      deps.logger.error(`rate limiter store not reachable: ${result.message}`);
      return refuse(ctx, 503, GatewayMessages.limiterUnavailable);
  }
}

function keyLimit(
  ctx: RequestContext,
  session: Session | undefined,
  own: AccessLimit | undefined,
  scope: string,
  endpoint: EndpointLimit | undefined,
): RateSpec | undefined {
  const who = ctx.keyHash ? `key:${ctx.keyHash}` : `api:${ctx.api.definition.api_id}`;
  if (endpoint)
    return {
      counter: `${who}:${ctx.api.definition.api_id}:endpoint-${endpoint.index}`,
      rate: endpoint.rate,
      per: endpoint.per,
    };
  if (!session || !ctx.keyHash) return undefined;
  const source = own ?? session;
  if (!positive(source.rate) || !positive(source.per)) return undefined;
  return { counter: `${who}${scope}`, rate: source.rate!, per: source.per!, smoothing: smoothingOf(source.smoothing) };
}

function quotaOf(source: { quota_max?: number; quota_renewal_rate?: number }, counter: string): QuotaSpec | undefined {
  if (typeof source.quota_max !== 'number' || source.quota_max === -1) return undefined;
  return { counter, max: source.quota_max, renewal_rate: source.quota_renewal_rate ?? -1 };
}

/** Throttling is on only with a retry limit above 0; an interval of 0 retries without waiting. */
function throttleOf(source: {
  throttle_interval?: number;
  throttle_retry_limit?: number;
}): { intervalMs: number; retries: number } | undefined {
  const interval = source.throttle_interval ?? -1;
  const retries = source.throttle_retry_limit ?? -1;
  return retries > 0 && interval >= 0 ? { intervalMs: interval * 1000, retries } : undefined;
}

function smoothingOf(raw: unknown): SmoothingSpec | undefined {
  const spec = raw as Partial<SmoothingSpec> | undefined;
  if (!spec?.enabled) return undefined;
  return {
    enabled: true,
    threshold: Number(spec.threshold) || 1,
    step: Number(spec.step) || 1,
    trigger: Number(spec.trigger) || 0,
    delay: Number(spec.delay) || 0,
  };
}

/** Waits one throttle interval; false when the client went away meanwhile (nothing is sent then). */
function held(ctx: RequestContext, ms: number): Promise<boolean> {
  if (ctx.res.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      ctx.res.off('close', onClose);
      resolve(!ctx.res.destroyed);
    }, ms);
    ctx.res.once('close', onClose);
  });
}

function setRateHeaders(ctx: RequestContext, state: RateLimitState | undefined): void {
  if (!state) return;
  ctx.setResponseHeader('x-ratelimit-limit', String(state.limit));
  ctx.setResponseHeader('x-ratelimit-remaining', String(state.remaining));
  ctx.setResponseHeader('x-ratelimit-reset', String(state.reset));
}

function positive(value: number | undefined): boolean {
  return typeof value === 'number' && value > 0;
}

import type { GatewayEventName } from '../../../contracts/events';
import type {
  LimiterCheckParams,
  LimiterCheckResult,
  LimiterEvent,
  RateLimitState,
  RateSpec,
} from '../../../contracts/limiter/actions';
import type { CounterStore, QuotaOutcome, WindowOutcome } from './counter-store';
import type { DrlShare } from './drl-share';
import type { SmoothingStore } from './smoothing';
import type { TokenBucketStore } from './token-buckets';

export type Algorithm = 'drl' | 'sentinel' | 'fixed-window';

export interface RateLimiterOptions {
  algorithm: Algorithm;
  /** DRL: below drlThreshold × gateway nodes requests per second, use the shared sliding log */
  drlThreshold: number;
  store: CounterStore;
  /** this node's buckets, or its host's when gateway workers share memory */
  buckets: TokenBucketStore;
  drl: DrlShare;
  smoother: SmoothingStore;
  now: () => number;
  emit(event: GatewayEventName, params: LimiterCheckParams, message: string, meta?: Record<string, unknown>): void;
}

interface RateOutcome {
  allowed: boolean;
  state: RateLimitState;
}

/**
 * Decides one request's rate limits and quota (see `limiter.check`). A store that fails makes
 * the check fail with `store_unavailable`: a request is never let through unchecked, nor
 * refused as if it had exceeded a limit. With counters in memory every step answers at once, and
 * so does `check`: the gateway of the same node then runs no promise for its limits.
 */
export class RateLimiter {
  constructor(private readonly options: RateLimiterOptions) {}

  check(params: LimiterCheckParams): LimiterCheckResult | Promise<LimiterCheckResult> {
    const now = this.options.now();
    // An organisation's check is a second check of the same request: the DRL counts requests.
    if (params.scope !== 'org') this.options.drl.recordRequest();
    try {
      const result =
        params.api_limit && !params.retry
          ? this.afterApiLimit(this.rate(params.api_limit, params, now), params, now)
          : this.keyLimit(params, now);
      return result instanceof Promise ? result.catch(storeUnavailable) : result;
    } catch (err) {
      return storeUnavailable(err);
    }
  }

  private afterApiLimit(
    api: RateOutcome | Promise<RateOutcome>,
    params: LimiterCheckParams,
    now: number,
  ): LimiterCheckResult | Promise<LimiterCheckResult> {
    if (api instanceof Promise) return api.then((settled) => this.afterApiLimit(settled, params, now));
    return api.allowed ? this.keyLimit(params, now) : API_RATE;
  }

  private keyLimit(params: LimiterCheckParams, now: number): LimiterCheckResult | Promise<LimiterCheckResult> {
    if (!params.key_limit) return this.quota(params, now, undefined);
    return this.afterKeyLimit(this.rate(params.key_limit, params, now), params, now);
  }

  private afterKeyLimit(
    key: RateOutcome | Promise<RateOutcome>,
    params: LimiterCheckParams,
    now: number,
  ): LimiterCheckResult | Promise<LimiterCheckResult> {
    if (key instanceof Promise) return key.then((settled) => this.afterKeyLimit(settled, params, now));
    if (!key.allowed) {
      const [event, message] =
        params.scope === 'org'
          ? (['OrgRateLimitExceeded', 'Organisation rate limit has been exceeded'] as const)
          : (['RatelimitExceeded', 'Key Rate Limit Exceeded'] as const);
      const reported = this.refused(params, event, message, { counter: params.key_limit!.counter });
      return { ok: false, reason: 'key_rate', rate: key.state, ...reported };
    }
    return this.quota(params, now, key.state);
  }

  private quota(
    params: LimiterCheckParams,
    now: number,
    rate: RateLimitState | undefined,
  ): LimiterCheckResult | Promise<LimiterCheckResult> {
    if (!params.quota) return { ok: true, rate };
    const { counter, max, renewal_rate } = params.quota;
    const outcome = this.options.store.quota(counter, max, renewal_rate > 0 ? renewal_rate * 1000 : 0, now);
    return outcome instanceof Promise
      ? outcome.then((settled) => this.quotaResult(settled, params, rate))
      : this.quotaResult(outcome, params, rate);
  }

  private quotaResult(
    outcome: QuotaOutcome,
    params: LimiterCheckParams,
    rate: RateLimitState | undefined,
  ): LimiterCheckResult {
    const max = params.quota!.max;
    const quota = { limit: max, remaining: Math.max(0, max - outcome.used), reset: Math.ceil(outcome.renewsAt / 1000) };
    if (!outcome.allowed) {
      const [event, message] =
        params.scope === 'org'
          ? (['OrgQuotaExceeded', 'Organisation quota has been exceeded'] as const)
          : (['QuotaExceeded', 'Key Quota Limit Exceeded'] as const);
      const reported = this.refused(params, event, message, { quota_max: max, quota_renews: quota.reset });
      return { ok: false, reason: 'quota', rate, quota, ...reported };
    }
    return { ok: true, rate, quota };
  }

  /** A refusal's event: emitted here, or handed back for a caller that emits it with the request's details. */
  private refused(
    params: LimiterCheckParams,
    event: GatewayEventName,
    message: string,
    meta: Record<string, unknown>,
  ): { event?: LimiterEvent } {
    if (params.events === 'returned') return { event: { event, message, meta } };
    this.options.emit(event, params, message, meta);
    return {};
  }

  private rate(spec: RateSpec, params: LimiterCheckParams, now: number): RateOutcome | Promise<RateOutcome> {
    const windowMs = spec.per * 1000;
    let limit = spec.rate;
    if (spec.smoothing?.enabled) {
      const smoothed = this.options.smoother.allowance(spec.counter, spec.smoothing, spec.rate, windowMs, now);
      limit = smoothed.allowance;
      if (smoothed.change) {
        const { direction, from, to } = smoothed.change;
        this.options.emit(
          direction === 'up' ? 'RateLimitSmoothingUp' : 'RateLimitSmoothingDown',
          params,
          `Rate limit allowance changed from ${from} to ${to}`,
          { counter: spec.counter, from, to },
        );
      }
    }
    const { algorithm, store } = this.options;
    if (algorithm === 'sentinel') return windowState(store.slidingLog(spec.counter, limit, windowMs, now, true), limit);
    if (algorithm === 'fixed-window') return windowState(store.fixedWindow(spec.counter, limit, windowMs, now), limit);
    const { fraction, gateways } = this.options.drl.share();
    if (spec.rate / spec.per < this.options.drlThreshold * gateways) {
      return windowState(store.slidingLog(spec.counter, limit, windowMs, now, false), limit);
    }
    const share = Math.max(1, limit * fraction);
    const taken = this.options.buckets.take(spec.counter, share, windowMs, now);
    return {
      allowed: taken.allowed,
      state: {
        limit,
        remaining: Math.min(limit, Math.floor(taken.remaining / fraction)),
        reset: Math.ceil(taken.resetAt / 1000),
      },
    };
  }
}

const API_RATE: LimiterCheckResult = Object.freeze({ ok: false, reason: 'api_rate' });

function storeUnavailable(err: unknown): LimiterCheckResult {
  return { ok: false, reason: 'store_unavailable', message: (err as Error).message };
}

function windowState(
  outcome: WindowOutcome | Promise<WindowOutcome>,
  limit: number,
): RateOutcome | Promise<RateOutcome> {
  if (outcome instanceof Promise) return outcome.then((settled) => windowState(settled, limit) as RateOutcome);
  return {
    allowed: outcome.allowed,
    state: { limit, remaining: Math.max(0, limit - outcome.count), reset: Math.ceil(outcome.resetAt / 1000) },
  };
}

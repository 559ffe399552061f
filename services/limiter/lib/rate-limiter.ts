import type { GatewayEventName } from '../../../contracts/events';
import type { LimiterCheckParams, LimiterCheckResult, RateLimitState, RateSpec } from '../../../contracts/limiter/actions';
import type { CounterStore } from './counter-store';
import type { DrlShare } from './drl-share';
import type { Smoother } from './smoothing';
import type { TokenBuckets } from './token-buckets';

export type Algorithm = 'drl' | 'sentinel' | 'fixed-window';

export interface RateLimiterOptions {
  algorithm: Algorithm;
  /** DRL: below drlThreshold × gateway nodes requests per second, use the shared sliding log */
  drlThreshold: number;
  store: CounterStore;
  buckets: TokenBuckets;
  drl: DrlShare;
  smoother: Smoother;
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
 * refused as if it had exceeded a limit.
 */
export class RateLimiter {
  constructor(private readonly options: RateLimiterOptions) {}

  async check(params: LimiterCheckParams): Promise<LimiterCheckResult> {
    const now = this.options.now();
    this.options.drl.recordRequest();
    try {
      if (params.api_limit && !params.retry) {
        const api = await this.rate(params.api_limit, params, now);
        if (!api.allowed) return { ok: false, reason: 'api_rate' };
      }
      let rate: RateLimitState | undefined;
      if (params.key_limit) {
        const key = await this.rate(params.key_limit, params, now);
        rate = key.state;
        if (!key.allowed) {
          this.options.emit('RateLimitExceeded', params, 'Key Rate Limit Exceeded', { counter: params.key_limit.counter });
          return { ok: false, reason: 'key_rate', rate };
        }
      }
      if (!params.quota) return { ok: true, rate };
      const { counter, max, renewal_rate } = params.quota;
      const outcome = await this.options.store.quota(counter, max, renewal_rate > 0 ? renewal_rate * 1000 : 0, now);
      const quota = { limit: max, remaining: Math.max(0, max - outcome.used), reset: Math.ceil(outcome.renewsAt / 1000) };
      if (!outcome.allowed) {
        this.options.emit('QuotaExceeded', params, 'Key Quota Limit Exceeded', { quota_max: max, quota_renews: quota.reset });
        return { ok: false, reason: 'quota', rate, quota };
      }
      return { ok: true, rate, quota };
    } catch (err) {
      return { ok: false, reason: 'store_unavailable', message: (err as Error).message };
    }
  }

  private async rate(spec: RateSpec, params: LimiterCheckParams, now: number): Promise<RateOutcome> {
    const windowMs = spec.per * 1000;
    let limit = spec.rate;
    if (spec.smoothing?.enabled) {
      const smoothed = this.options.smoother.allowance(spec.counter, spec.smoothing, spec.rate, windowMs, now);
      limit = smoothed.allowance;
      if (smoothed.change) {
        const { direction, from, to } = smoothed.change;
        this.options.emit(direction === 'up' ? 'RateLimitSmoothingUp' : 'RateLimitSmoothingDown', params, `Rate limit allowance changed from ${from} to ${to}`, { counter: spec.counter, from, to });
      }
    }
    const { algorithm, store } = this.options;
    if (algorithm === 'sentinel') return windowState(await store.slidingLog(spec.counter, limit, windowMs, now, true), limit);
    if (algorithm === 'fixed-window') return windowState(await store.fixedWindow(spec.counter, limit, windowMs, now), limit);
    const { fraction, gateways } = this.options.drl.share();
    if (spec.rate / spec.per < this.options.drlThreshold * gateways) {
      return windowState(await store.slidingLog(spec.counter, limit, windowMs, now, false), limit);
    }
    const share = Math.max(1, limit * fraction);
    const taken = this.options.buckets.take(spec.counter, share, windowMs, now);
    return { allowed: taken.allowed, state: { limit, remaining: Math.min(limit, Math.floor(taken.remaining / fraction)), reset: Math.ceil(taken.resetAt / 1000) } };
  }
}

function windowState(outcome: { allowed: boolean; count: number; resetAt: number }, limit: number): RateOutcome {
  return { allowed: outcome.allowed, state: { limit, remaining: Math.max(0, limit - outcome.count), reset: Math.ceil(outcome.resetAt / 1000) } };
}

import type { LimiterCheckParams, LimiterCheckResult } from './actions';

/**
 * `limiter.check` in process, for the gateway of the same node, which checks limits on every
 * request. The same answer as the action, without a Moleculer context, timer and promise chain
 * per call: with counters in memory it answers synchronously. Over the bus (another node runs
 * the limiter) the action is called as usual.
 */
export interface LimiterHandOff {
  check(params: LimiterCheckParams): LimiterCheckResult | Promise<LimiterCheckResult>;
}

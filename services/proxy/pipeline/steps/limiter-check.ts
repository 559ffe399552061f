import type { LimiterCheckParams, LimiterCheckResult } from '../../../../contracts/limiter/actions';
import type { HotCall } from '../../../../lib/bus/hot-call';

/**
 * `limiter.check`, in process or over the bus: a limiter that can not be asked answers
 * `store_unavailable`, which the steps turn into a 503 rather than letting the request through.
 */
export function checkLimits(
  check: HotCall,
  params: LimiterCheckParams,
): LimiterCheckResult | Promise<LimiterCheckResult> {
  try {
    const result = check('limiter.check', params);
    return result instanceof Promise ? result.catch(limiterFailed) : result;
  } catch (err) {
    return limiterFailed(err);
  }
}

function limiterFailed(err: unknown): LimiterCheckResult {
  return { ok: false, reason: 'store_unavailable', message: (err as Error).message };
}

import type { LimiterCheckParams, LimiterCheckResult } from '../../../../contracts/limiter/actions';
import type { HotCall } from '../../../../lib/bus/hot-call';
import { emitLimiterEvent, type EmitRequestEvent } from '../request-events';
import type { RequestContext } from '../request-context';

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

/**
 * Publishes the event of a refusal the limiter handed back, with the request's path and client
 * address: every check that refuses is one (a held request refused again is another).
 */
export function reportRefusal(
  ctx: RequestContext,
  deps: { emitEvent: EmitRequestEvent },
  result: LimiterCheckResult,
  key?: string,
): void {
  if (result.ok || result.reason === 'store_unavailable' || !result.event) return;
  emitLimiterEvent(deps.emitEvent, ctx, result.event, key);
}

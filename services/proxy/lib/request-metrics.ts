import type { ServerResponse } from 'node:http';
import type { GatewayMetrics } from '../../../lib/observability/gateway-metrics';
import { answeredStatus } from '../pipeline/grpc/grpc-status';
import type { RequestContext } from '../pipeline/request-context';

/** Sees every request routed to an API before its chain runs, and again once its answer has gone (analytics). */
export interface RequestObserver {
  started(ctx: RequestContext): void;
  /** never throws */
  finished(ctx: RequestContext): void;
}

const CONTEXT = Symbol('gw.requestContext');
type WatchedResponse = ServerResponse & { [CONTEXT]?: RequestContext };

/**
 * Counts each request an API answered once its response finished, and tells the observer. One
 * listener per gateway (the response carries its context), so watching a request allocates no
 * closure, and one listener per request however many want to know; a request whose client went
 * away before the response finished is neither counted nor observed as finished.
 */
export function requestWatcher(
  metrics: GatewayMetrics | undefined,
  observer: RequestObserver | undefined,
): ((ctx: RequestContext) => void) | undefined {
  if (!metrics && !observer) return undefined;
  function finished(this: WatchedResponse): void {
    const ctx = this[CONTEXT]!;
    this[CONTEXT] = undefined;
    if (metrics) {
      const upstream = ctx.upstreamMs === undefined ? undefined : ctx.upstreamMs / 1000;
      metrics.record(
        ctx.api.definition.api_id,
        ctx.req.method,
        answeredStatus(this),
        (performance.now() - ctx.startedAt) / 1000,
        upstream,
        ctx.stage,
      );
    }
    observer?.finished(ctx);
  }
  return (ctx) => {
    const res = ctx.res as WatchedResponse;
    res[CONTEXT] = ctx;
    // `on`, not `once` (which wraps the listener): a response finishes once.
    res.on('finish', finished);
    observer?.started(ctx);
  };
}

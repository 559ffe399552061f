import type { ServerResponse } from 'node:http';
import type { GatewayMetrics } from '../../../lib/observability/gateway-metrics';
import type { RequestContext } from '../pipeline/request-context';

const CONTEXT = Symbol('gw.requestContext');
type WatchedResponse = ServerResponse & { [CONTEXT]?: RequestContext };

/**
 * Counts each request an API answered once its response finished. One listener per gateway
 * (the response carries its context), so watching a request allocates no closure; a request
 * whose client went away before the response finished is not counted.
 */
export function requestWatcher(metrics: GatewayMetrics): (ctx: RequestContext) => void {
  function finished(this: WatchedResponse): void {
    const ctx = this[CONTEXT]!;
    this[CONTEXT] = undefined;
    const upstream = ctx.upstreamMs === undefined ? undefined : ctx.upstreamMs / 1000;
    metrics.record(ctx.api.definition.api_id, ctx.req.method, this.statusCode, (performance.now() - ctx.startedAt) / 1000, upstream, ctx.stage);
  }
  return (ctx) => {
    const res = ctx.res as WatchedResponse;
    res[CONTEXT] = ctx;
    // `on`, not `once` (which wraps the listener): a response finishes once.
    res.on('finish', finished);
  };
}

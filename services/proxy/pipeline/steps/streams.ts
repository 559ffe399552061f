import type { StreamApi } from '../../../../contracts/streams/hand-off';
import { DONE, type Step } from '../compose';
import { outboundTrace } from '../tracing/outbound-trace';

/**
 * A stream API's HTTP endpoints (`http_server` inputs and outputs): after the API's chain
 * (authentication, limits) let the request through, the streams of this node answer it
 * instead of an upstream (contracts/streams). Paths none of its streams serve go on upstream.
 */
export function streamsStep(streams: StreamApi | undefined): Step | undefined {
  if (!streams) return undefined;
  return (ctx) => {
    const request = { req: ctx.req, relativePath: ctx.relativePath, search: ctx.search };
    if (ctx.upgrade) return streams.upgrade(request, ctx.upgrade.socket, ctx.upgrade.head) ? DONE : undefined;
    const trace = ctx.trace && outboundTrace(ctx.trace);
    return streams.handle({ ...request, res: ctx.res, readBody: () => ctx.readBody(), trace }) ? DONE : undefined;
  };
}

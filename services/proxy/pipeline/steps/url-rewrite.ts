import { DONE, type Step } from '../compose';
import { GatewayMessages, sendGatewayError } from '../gateway-errors';
import type { RequestContext } from '../request-context';
import { parseTarget } from '../target';

/** Runs the chain of another API (or this one) for a request: `gw://<api>/<path>`. */
export type InternalLoop = (ctx: RequestContext, url: URL) => void;

const LOOP_SCHEME = 'gw:';

/**
 * `extended_paths.url_rewrites`: the request goes upstream to the rewritten path (the client's
 * query string kept unless the rewrite has its own), to another host when the rewrite is an
 * absolute URL, or through an API of this node again when it is `gw://self/…` or
 * `gw://<api_id>/…` (steps run again for that API, nothing leaves the process).
 */
export function urlRewriteStep(loop: InternalLoop): Step {
  return (ctx) => {
    const rewrite = ctx.version?.urlRewrites?.find(ctx.req.method ?? 'GET', ctx.relativePath);
    if (!rewrite) return;
    return rewrite
      .rewrite(ctx, async () => (await ctx.readBody()).toString('utf8'))
      .then((target) => {
        if (target === undefined) return;
        return applyRewrite(ctx, target, loop);
      });
  };
}

function applyRewrite(ctx: RequestContext, target: string, loop: InternalLoop): typeof DONE | undefined {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) {
    const url = new URL(target);
    if (url.protocol === LOOP_SCHEME) {
      loop(ctx, url);
      return DONE;
    }
    // (an h2c:// URL has no `origin`: scheme and host are joined here)
    ctx.targetOverride = parseTarget(`${url.protocol}//${url.host}`);
    ctx.rewrittenUrl = url.pathname + (url.search || ctx.search);
    return undefined;
  }
  const queryAt = target.indexOf('?');
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  const search = queryAt === -1 ? ctx.search : target.slice(queryAt);
  ctx.rewrittenUrl = ctx.version!.target.basePath + (path.startsWith('/') ? path : `/${path}`) + search;
  return undefined;
}

/** `extended_paths.method_transforms`: the upstream gets the request with another method. */
export const methodTransformStep: Step = (ctx) => {
  const method = ctx.version?.methodTransforms?.find(ctx.req.method ?? 'GET', ctx.relativePath);
  if (method) ctx.upstreamMethod = method;
};

/** `extended_paths.internal`: such an endpoint does not exist for clients, only for internal loops. */
export const internalEndpointStep: Step = (ctx) => {
  if (ctx.loopLevel > 0) return;
  if (!ctx.version?.internalEndpoints?.find(ctx.req.method ?? 'GET', ctx.relativePath)) return;
  sendGatewayError(ctx.res, 404, GatewayMessages.notFound);
  return DONE;
};

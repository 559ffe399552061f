import type { Step } from '../compose';
import { applyHeaderTransform } from '../header-transform';

/**
 * The version's `global_headers` and `global_headers_remove`, then the endpoint's
 * `extended_paths.transform_headers` entry, on the upstream request.
 */
export const requestHeadersStep: Step = (ctx) => {
  const version = ctx.version;
  if (!version) return;
  if (version.requestHeaders) applyHeaderTransform(version.requestHeaders, ctx.upstreamHeaders(), ctx);
  const endpoint = version.endpointRequestHeaders?.find(ctx.req.method ?? 'GET', ctx.relativePath);
  if (endpoint) applyHeaderTransform(endpoint, ctx.upstreamHeaders(), ctx);
};

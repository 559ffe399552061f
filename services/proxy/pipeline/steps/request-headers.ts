import type { Step } from '../compose';
import { applyHeaderTransform } from '../header-transform';

/** The version's `global_headers` and `global_headers_remove` on the upstream request. */
export const requestHeadersStep: Step = (ctx) => {
  const transform = ctx.version?.requestHeaders;
  if (transform) applyHeaderTransform(transform, ctx.upstreamHeaders(), ctx);
};

import { DONE, type Step } from '../compose';
import { GatewayMessages, sendGatewayError } from '../gateway-errors';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The endpoint's `extended_paths.size_limits` entry, else `global_size_limit` of the request's
 * version, in bytes: a larger stated `Content-Length` is
 * 400 `Request is too large`; a body-carrying request without one is 411. Node's parser holds
 * the client to the length it stated, so the body can not be larger than checked.
 */
export const sizeLimitStep: Step = (ctx) => {
  const version = ctx.version;
  const limit = version?.sizeLimits?.find(ctx.req.method ?? 'GET', ctx.relativePath) ?? version?.sizeLimit ?? 0;
  if (limit <= 0) return;
  const stated = ctx.req.headers['content-length'];
  if (stated === undefined) {
    if (!BODY_METHODS.has(ctx.req.method ?? '') && ctx.req.headers['transfer-encoding'] === undefined) return;
    sendGatewayError(ctx.res, 411, GatewayMessages.lengthRequired);
    return DONE;
  }
  if (!/^\d+$/.test(stated)) {
    sendGatewayError(ctx.res, 400, GatewayMessages.lengthInvalid);
    return DONE;
  }
  if (Number(stated) > limit) {
    sendGatewayError(ctx.res, 400, GatewayMessages.requestTooLarge);
    return DONE;
  }
};

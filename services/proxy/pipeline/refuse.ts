import { DONE } from './compose';
import { sendGatewayError } from './gateway-errors';
import type { RequestContext } from './request-context';

/** Answers the request with a gateway error and ends its chain. */
export function refuse(ctx: RequestContext, status: number, message: string, headers?: Record<string, string>): typeof DONE {
  sendGatewayError(ctx.res, status, message, headers);
  return DONE;
}

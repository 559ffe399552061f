import { DONE } from './compose';
import { sendGatewayError, sendJson } from './gateway-errors';
import type { RequestContext } from './request-context';

/** Answers the request with a gateway error and ends its chain. */
export function refuse(
  ctx: RequestContext,
  status: number,
  message: string,
  headers?: Record<string, string>,
): typeof DONE {
  sendGatewayError(ctx.res, status, message, headers);
  return DONE;
}

/** Answers the request with a JSON body of the gateway's own and ends its chain. */
export function answerJson(ctx: RequestContext, status: number, body: unknown): typeof DONE {
  sendJson(ctx.res, status, body);
  return DONE;
}

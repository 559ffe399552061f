import type { ServerResponse } from 'node:http';
import type { Step } from '../compose';

const AS_JSON_RPC = Symbol('gw.mcpErrors');
type MarkedResponse = ServerResponse & { [AS_JSON_RPC]?: true };

/**
 * The first step of an MCP API: the gateway's own refusals of its requests (authentication,
 * limits, upstream failures) are written as JSON-RPC errors, keeping their HTTP status, so an
 * MCP client reads them as it reads a server's (a 401 still starts its OAuth flow).
 */
export const jsonRpcErrorsStep: Step = (ctx) => {
  (ctx.res as MarkedResponse)[AS_JSON_RPC] = true;
};

export function answersAsJsonRpc(res: ServerResponse): boolean {
  return (res as MarkedResponse)[AS_JSON_RPC] === true;
}

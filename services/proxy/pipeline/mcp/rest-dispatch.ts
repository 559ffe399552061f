import type { RequestContext } from '../request-context';
import type { JsonRpcRequest, JsonRpcResponse } from './jsonrpc';

/**
 * Answers the messages of a REST-as-MCP API (`mcp.rest_source`) instead of a remote MCP server:
 * built in ./rest-as-mcp/ (answerRestAsMcp). Undefined for a notification, which has no answer.
 */
export type RestAsMcpResponder = (
  message: JsonRpcRequest,
  ctx: RequestContext,
  sourceApiId: string,
) => Promise<JsonRpcResponse | undefined>;

/** Set once the REST-as-MCP responder is wired in; until then such APIs answer -32603. */
export const restAsMcp: { responder: RestAsMcpResponder | undefined } = { responder: undefined };

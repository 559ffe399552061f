import type { RequestContext } from '../request-context';
import type { InternalLoop } from '../steps/url-rewrite';
import type { JsonRpcRequest, JsonRpcResponse } from './jsonrpc';

/** What answering a REST-as-MCP message needs: the caller's request, the REST API, the way into its chain. */
export interface RestAsMcpRequest {
  ctx: RequestContext;
  /** `mcp.rest_source`: the api_id whose OAS operations are the tools */
  sourceApiId: string;
  /** `mcp.rest_primitives`: the selected and renamed operations, as stored */
  primitives: unknown[] | undefined;
  /** sends a request on to an API of this node (`gw://<api_id>/<path>`), with the caller's credentials */
  loop: InternalLoop;
}

/** Answers one message of a REST-as-MCP API; undefined for a notification, which has no answer. */
export type RestAsMcpResponder = (
  message: JsonRpcRequest,
  request: RestAsMcpRequest,
) => Promise<JsonRpcResponse | undefined>;

/**
 * The responder built in ./rest-as-mcp/ (answerRestAsMcp), adapted to RestAsMcpResponder;
 * undefined until it is wired in here, and such APIs answer -32603 meanwhile.
 */
export function restAsMcpResponder(): RestAsMcpResponder | undefined {
  return undefined;
}

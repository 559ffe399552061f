import type { RestTool } from '../../../../lib/mcp/rest-tools';
import type { RequestContext } from '../request-context';
import type { JsonRpcRequest, JsonRpcResponse } from './jsonrpc';
import { answerRestAsMcp } from './rest-as-mcp/answer';
import { restLoopRequest, type RestLoopRequest } from './rest-as-mcp/loop-request';
import type { RestAnswer } from './rest-as-mcp/rest-call';

/**
 * Runs a request through an API of this node in process (`gw://<api_id>/<path>`, same
 * organisation only) as a client request of its own: that API's chain authenticates the
 * credentials the request carries, nothing of the caller's session is taken over.
 */
export type InternalExchange = (from: RequestContext, request: RestLoopRequest) => Promise<RestAnswer>;

/** What answering a REST-as-MCP message needs: the caller's request, the REST API, the way into its chain. */
export interface RestAsMcpRequest {
  ctx: RequestContext;
  /** `mcp.rest_source`: the api_id whose OAS operations are the tools */
  sourceApiId: string;
  /** `mcp.rest_tools`: the tools derived when the MCP API was saved */
  tools: readonly RestTool[];
  exchange: InternalExchange;
}

/** Answers one message of a REST-as-MCP API; undefined for a notification, which has no answer. */
export type RestAsMcpResponder = (
  message: JsonRpcRequest,
  request: RestAsMcpRequest,
) => Promise<JsonRpcResponse | undefined>;

/**
 * The REST-as-MCP responder (./rest-as-mcp/): a tool call becomes a request through the REST
 * API's own chain with the caller's headers, so its authentication, limits and validation apply.
 */
export const answerFromRestApi: RestAsMcpResponder = (message, { ctx, sourceApiId, tools, exchange }) =>
  answerRestAsMcp(message, {
    serverInfo: { name: ctx.api.definition.name ?? ctx.api.definition.api_id, version: '1.0.0' },
    tools,
    send: (request) => exchange(ctx, restLoopRequest(sourceApiId, ctx.req.headers, request)),
  });

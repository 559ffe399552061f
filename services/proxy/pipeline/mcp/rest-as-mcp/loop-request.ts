import type { IncomingHttpHeaders } from 'node:http';
import type { RestRequest } from '../../../../../lib/mcp/rest-tool-request';

/** A tool call's request as an internal loop into the REST API: `gw://<api_id>/<path>?<query>`. */
export interface RestLoopRequest {
  url: URL;
  method: string;
  headers: Record<string, string | string[]>;
  body?: string;
}

/**
 * Headers of the MCP request that describe the MCP exchange, its body or its connection, not
 * the caller: they stay behind. Every other header goes on, so the REST API authenticates the
 * caller with whatever credential its own scheme reads (a header key, Authorization, a cookie).
 */
const MCP_ONLY = new Set([
  'accept',
  'accept-encoding',
  'connection',
  'content-length',
  'content-type',
  'expect',
  'host',
  'keep-alive',
  'last-event-id',
  'mcp-protocol-version',
  'mcp-session-id',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * The loop request for a tool call of an MCP API whose tools are those of `restApiId`: the
 * caller's headers (its credentials among them), then the tool's own header arguments and body
 * type, which win. The path is below the REST API's listen path.
 */
export function restLoopRequest(
  restApiId: string,
  incoming: IncomingHttpHeaders,
  request: RestRequest,
): RestLoopRequest {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(incoming))
    if (value !== undefined && !MCP_ONLY.has(name.toLowerCase())) headers[name.toLowerCase()] = value;
  headers.accept = 'application/json, */*';
  for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
  return {
    url: new URL(`gw://${encodeURIComponent(restApiId)}${request.path}${request.search}`),
    method: request.method,
    headers,
    ...(request.body !== undefined ? { body: request.body } : {}),
  };
}

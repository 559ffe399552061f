import type { RestRequest } from '../../../../../lib/mcp/rest-tool-request';
import type { RestTool } from '../../../../../lib/mcp/rest-tools';

/** The REST API's answer to a tool call's request. */
export interface RestAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * What the REST-as-MCP responder needs of the MCP API it answers for: the tools (derived from the
 * REST API's document with the MCP API's `x-gw-mcp-server` view) and a way to run a request
 * through the REST API's own chain with the caller's credentials (a `gw://<api_id>/<path>` loop).
 */
export interface RestCall {
  /** the MCP API's name and version, for initialize */
  serverInfo: { name: string; version: string };
  tools: readonly RestTool[];
  send(request: RestRequest): Promise<RestAnswer>;
}

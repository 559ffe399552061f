import type { OasApiDocument } from '../../../contracts/apis/actions';
import { mcpServerPrimitives, deriveRestToolView } from '../../../lib/mcp/rest-tool-view';
import { RestToolsError } from '../../../lib/mcp/rest-tool-params';
import type { RestTool } from '../../../lib/mcp/rest-tools';
import { ApisErrors } from '../errors';

/**
 * The tools a REST-as-MCP API offers: its REST source's operations through the MCP API's
 * `x-gw-mcp-server` view, derived when the MCP API is saved (strictly: a primitive naming an
 * operation that is not a tool is a 400) and kept in its classic definition (`mcp.rest_tools`),
 * so that a gateway node serves them without the source's document.
 */
export function restToolsOf(mcpDocument: OasApiDocument, source: OasApiDocument, sourceId: string): RestTool[] {
  try {
    return deriveRestToolView(source, mcpServerPrimitives(mcpDocument), true).tools;
  } catch (err) {
    if (err instanceof RestToolsError) throw ApisErrors.mcpSource(400, `x-gw-mcp-server: ${err.message}`, sourceId);
    throw err;
  }
}

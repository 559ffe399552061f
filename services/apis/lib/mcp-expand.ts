import type { OasApiDocument } from '../../../contracts/apis/actions';
import { deriveSourceTools, type RestTool } from '../../../lib/mcp/rest-tools';
import { cloneJson } from './oas/document';
import { restToolsOf } from './mcp-rest-view';

/**
 * The document `expand=true` answers. A remote MCP API's is the document as stored. For REST as
 * MCP (`restSource` given) `x-gw-mcp-server.primitives` lists the whole catalogue of the REST
 * source, as the reference's expanded view: the tools the API offers `allow: true` with their
 * final names, descriptions and input and output schemas, the source's other operations
 * `allow: false`.
 */
export function expandMcpDocument(document: OasApiDocument, restSource?: OasApiDocument): OasApiDocument {
  const copy = cloneJson(document);
  if (!restSource) return copy;
  const sourceId = String((copy['x-gw-api-gateway'] as { upstream?: { url?: string } }).upstream?.url ?? '');
  const offered = restToolsOf(copy, restSource, sourceId);
  const offeredSources = new Set(offered.map((tool) => tool.sourceKey));
  const others = deriveSourceTools(restSource).tools.filter((tool) => !offeredSources.has(tool.sourceKey));
  const server = (copy['x-gw-mcp-server'] ??= {}) as Record<string, unknown>;
  server.primitives = [
    ...offered.map((tool) => primitiveOf(tool, true)),
    ...others.map((tool) => primitiveOf(tool, false)),
  ];
  return copy;
}

function primitiveOf(tool: RestTool, allow: boolean): Record<string, unknown> {
  return {
    source: tool.operationId ? { operationId: tool.operationId } : { path: tool.pathTemplate, method: tool.method },
    name: tool.name,
    ...(tool.description ? { description: tool.description } : {}),
    annotations: tool.annotations,
    allow,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
  };
}

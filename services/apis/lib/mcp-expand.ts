import type { OasApiDocument } from '../../../contracts/apis/actions';
import { cloneJson } from './oas/document';

/**
 * The document `expand=true` answers. A remote MCP API's is the document as stored. For REST as
 * MCP (`restSource` given) it is meant to carry the whole derived tool catalogue of the REST
 * source in `x-gw-mcp-server.primitives`, the selected ones `allow: true`, the others `allow: false`.
 *
 * TODO(mcp): derive the catalogue with lib/mcp/rest-tools.ts (built beside this) and write it into
 * the copy; until then REST-as-MCP documents are answered as stored too.
 */
export function expandMcpDocument(document: OasApiDocument, restSource?: OasApiDocument): OasApiDocument {
  void restSource;
  return cloneJson(document);
}

/**
 * Reading and editing MCP API documents (`/api/mcps`) for the MCP pages: which tools an API
 * has and whether each is allowed, and the document to PUT after a switch. Pure: every edit
 * answers a changed copy and leaves the rest of the document as it was read.
 */

export type McpDocument = Record<string, unknown>;

/** Where a REST-as-MCP tool comes from: an operationId, or a method and path of the source API. */
export interface ToolSource {
  operationId?: string;
  path?: string;
  method?: string;
}

/** A tool of a REST-as-MCP API's expanded catalogue. */
export interface RestToolRow {
  source: ToolSource;
  name: string;
  description?: string;
  allow: boolean;
}

/** A tool named in a remote MCP API's `middleware.mcpTools`. */
export interface RemoteToolRow {
  name: string;
  denied: boolean;
}

const REST_SOURCE = /^gw:\/\/([^/]+)\/mcp$/;

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);
const child = (node: Node, name: string): Node => (isNode(node[name]) ? node[name] : {});

function gatewayOf(document: McpDocument): Node {
  return child(document, 'x-gw-api-gateway');
}

export function mcpIdOf(document: McpDocument): string {
  return String(child(gatewayOf(document), 'info').id ?? '');
}

export function mcpNameOf(document: McpDocument): string {
  const gateway = gatewayOf(document);
  return String(child(gateway, 'info').name ?? child(document, 'info').title ?? mcpIdOf(document));
}

export function listenPathOf(document: McpDocument): string {
  return String(child(child(gatewayOf(document), 'server'), 'listenPath').value ?? '');
}

export function upstreamOf(document: McpDocument): string {
  return String(child(gatewayOf(document), 'upstream').url ?? '');
}

/** The REST API an MCP API offers as tools (`gw://<api_id>/mcp`), or undefined for a remote MCP server. */
export function restSourceOf(document: McpDocument): string | undefined {
  return REST_SOURCE.exec(upstreamOf(document))?.[1];
}

/** A stable key of a tool's source: `op:<operationId>` or `<METHOD> <path>`. */
export function sourceKey(source: ToolSource | undefined): string {
  if (source?.operationId) return `op:${source.operationId}`;
  return `${(source?.method ?? '').toUpperCase()} ${source?.path ?? ''}`;
}

/** The tools of an expanded REST-as-MCP document (`?expand=true`), as its primitives list them. */
export function restToolsOf(expanded: McpDocument): RestToolRow[] {
  const primitives = child(expanded, 'x-gw-mcp-server').primitives;
  if (!Array.isArray(primitives)) return [];
  return primitives.filter(isNode).map((primitive) => ({
    source: isNode(primitive.source) ? (primitive.source as ToolSource) : {},
    name: String(primitive.name ?? sourceKey(primitive.source as ToolSource)),
    ...(typeof primitive.description === 'string' ? { description: primitive.description } : {}),
    allow: primitive.allow === true,
  }));
}

/**
 * The stored document with the primitive of `source` allowed or not: its entry of
 * `x-gw-mcp-server.primitives` gets `allow`, or a new entry `{source, allow}` is added. Edits
 * the stored (not expanded) document, so renames and parameter overrides stay as saved.
 */
export function withToolAllowed(stored: McpDocument, source: ToolSource, allow: boolean): McpDocument {
  const copy = structuredClone(stored);
  const server = (copy['x-gw-mcp-server'] = isNode(copy['x-gw-mcp-server']) ? copy['x-gw-mcp-server'] : {});
  const primitives = (server.primitives = Array.isArray(server.primitives) ? server.primitives : []) as unknown[];
  const key = sourceKey(source);
  const found = primitives.find((p): p is Node => isNode(p) && sourceKey(p.source as ToolSource) === key);
  if (found) found.allow = allow;
  else primitives.push({ source: { ...source }, allow });
  return copy;
}

function mcpToolsOf(document: McpDocument): Node {
  return child(child(gatewayOf(document), 'middleware'), 'mcpTools');
}

/** The tools a remote MCP API names in `middleware.mcpTools`, denied when their `block` is enabled. */
export function remoteToolsOf(document: McpDocument): RemoteToolRow[] {
  return Object.entries(mcpToolsOf(document)).map(([name, rule]) => ({
    name,
    denied: isNode(rule) && isNode(rule.block) && rule.block.enabled === true,
  }));
}

/** The document with tool `name` denied (`block: {enabled: true}`) or not; its other rules kept. */
export function withToolBlocked(document: McpDocument, name: string, denied: boolean): McpDocument {
  const copy = structuredClone(document);
  const gateway = (copy['x-gw-api-gateway'] = isNode(copy['x-gw-api-gateway']) ? copy['x-gw-api-gateway'] : {});
  const middleware = (gateway.middleware = isNode(gateway.middleware) ? gateway.middleware : {});
  const tools = (middleware.mcpTools = isNode(middleware.mcpTools) ? middleware.mcpTools : {});
  const rule = (tools[name] = isNode(tools[name]) ? tools[name] : {});
  rule.block = { ...(isNode(rule.block) ? rule.block : {}), enabled: denied };
  return copy;
}

/** The document with one more tool denied by name; a blank name is refused with a message for the form. */
export function withDeniedTool(document: McpDocument, name: string): McpDocument {
  const trimmed = name.trim();
  if (!trimmed) throw new Error('Enter the name of the tool to deny.');
  return withToolBlocked(document, trimmed, true);
}

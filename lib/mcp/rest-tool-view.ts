import { isNode, type OasNode } from './oas-refs';
import {
  assertToolName,
  compare,
  deriveSourceTools,
  findOperation,
  pathMethodKey,
  RestToolsError,
  type DeriveWarning,
  type RestTool,
  type ToolAnnotations,
} from './rest-tools';

/** One entry of `x-gw-mcp-server.primitives`: selects an operation, and may rename or describe it. */
export interface McpServerPrimitive {
  source?: { operationId?: string; path?: string; method?: string };
  name?: string;
  description?: string;
  annotations?: ToolAnnotations;
  parameters?: Array<{ param?: string; name?: string; description?: string }>;
  /** when any primitive is allowed, only the allowed ones are tools */
  allow?: boolean;
}

/**
 * The tools an MCP API offers of a REST API: the source document's catalogue, narrowed to the
 * allowed primitives when any is allowed, with their renames and descriptions applied. A
 * primitive naming an operation that is not (or no longer) a tool is skipped with a warning,
 * or refused when `strict` (a definition being saved).
 */
export function deriveRestToolView(
  document: OasNode,
  primitives: readonly McpServerPrimitive[] = [],
  strict = false,
): { tools: RestTool[]; warnings: DeriveWarning[] } {
  const { tools: catalogue, warnings } = deriveSourceTools(document);
  const bySource = new Map(catalogue.map((tool) => [tool.sourceKey, tool]));
  const overrides = new Map<string, McpServerPrimitive>();
  const allowed: string[] = [];
  let allowList = false;
  for (const primitive of primitives) {
    const sourceKey = primitiveSourceKey(primitive);
    if (primitive.allow === true) allowList = true;
    const tool = bySource.get(sourceKey);
    if (!tool) {
      refuseOperationIdByPath(document, primitive);
      if (strict)
        throw new RestToolsError(`primitive source "${sourceKey}" references unknown or non-exposable source`);
      warnings.push({ operation: sourceKey, reason: 'primitive references non-exposable source - skipped' });
      continue;
    }
    if (overrides.has(sourceKey)) throw new RestToolsError(`duplicate primitive source "${sourceKey}"`);
    checkParameterOverrides(tool, primitive, sourceKey);
    overrides.set(sourceKey, primitive);
    if (primitive.allow === true) allowed.push(sourceKey);
  }
  const selected = allowList ? allowed : catalogue.map((tool) => tool.sourceKey);
  const names = new Map<string, string>();
  const tools = selected.map((sourceKey) => {
    const tool = structuredClone(bySource.get(sourceKey)!);
    const override = overrides.get(sourceKey);
    if (override) applyOverride(tool, override, sourceKey);
    assertToolName(tool.name, sourceKey);
    const other = names.get(tool.name);
    if (other)
      throw new RestToolsError(`duplicate exposed tool name "${tool.name}" for sources "${other}" and "${sourceKey}"`);
    names.set(tool.name, sourceKey);
    return tool;
  });
  return { tools: tools.sort((a, b) => compare(a.name, b.name)), warnings };
}

/** `x-gw-mcp-server.primitives` of an MCP API's document, as its entries (none when absent). */
export function mcpServerPrimitives(document: OasNode): McpServerPrimitive[] {
  const server = document['x-gw-mcp-server'];
  return isNode(server) && Array.isArray(server.primitives) ? (server.primitives as McpServerPrimitive[]) : [];
}

function primitiveSourceKey(primitive: McpServerPrimitive): string {
  const operationId = primitive.source?.operationId?.trim() ?? '';
  const path = primitive.source?.path?.trim() ?? '';
  const method = primitive.source?.method?.trim() ?? '';
  if ((operationId !== '') === (path !== '' || method !== ''))
    throw new RestToolsError('primitive source must specify exactly one source selector: operationId or path+method');
  if (operationId) return `operationId:${operationId}`;
  if (!path || !method) throw new RestToolsError('primitive source path+method selector requires both path and method');
  return pathMethodKey(method, path);
}

function refuseOperationIdByPath(document: OasNode, primitive: McpServerPrimitive): void {
  const { path, method } = primitive.source ?? {};
  if (!path || !method) return;
  const operationId = findOperation(document, method.trim(), path.trim())?.operation.operationId;
  if (typeof operationId === 'string' && operationId.trim())
    throw new RestToolsError(
      `primitive source ${method.trim().toUpperCase()} ${path.trim()} has operationId "${operationId}"; use source.operationId`,
    );
}

function checkParameterOverrides(tool: RestTool, primitive: McpServerPrimitive, sourceKey: string): void {
  const seen = new Set<string>();
  for (const parameter of primitive.parameters ?? []) {
    if (!parameter.param) throw new RestToolsError(`primitive "${sourceKey}" has parameter override missing param`);
    if (seen.has(parameter.param))
      throw new RestToolsError(`primitive "${sourceKey}" has duplicate parameter override "${parameter.param}"`);
    seen.add(parameter.param);
    if (!(parameter.param in tool.arguments))
      throw new RestToolsError(`primitive "${sourceKey}" references unknown parameter "${parameter.param}"`);
  }
}

function applyOverride(tool: RestTool, override: McpServerPrimitive, sourceKey: string): void {
  const name = override.name?.trim();
  if (name) {
    assertToolName(name, `primitive "${sourceKey}"`);
    if (tool.annotations.title === tool.name) tool.annotations.title = name;
    tool.name = name;
  }
  if (override.description) tool.description = override.description;
  for (const [hint, value] of Object.entries(override.annotations ?? {}))
    if (value !== undefined && value !== '') (tool.annotations as Record<string, unknown>)[hint] = value;
  for (const parameter of override.parameters ?? []) {
    let argument = parameter.param!;
    const newName = parameter.name?.trim();
    if (newName && newName !== argument) {
      renameArgument(tool, argument, newName, sourceKey);
      argument = newName;
    }
    if (parameter.description) {
      const properties = tool.inputSchema.properties as Record<string, Record<string, unknown>>;
      properties[argument] = { ...properties[argument], description: parameter.description };
    }
  }
}

function renameArgument(tool: RestTool, from: string, to: string, sourceKey: string): void {
  assertToolName(to, `primitive "${sourceKey}": parameter override "${from}"`);
  if (to in tool.arguments)
    throw new RestToolsError(
      `primitive "${sourceKey}": parameter override renames "${from}" to duplicate parameter "${to}"`,
    );
  tool.arguments[to] = tool.arguments[from];
  delete tool.arguments[from];
  tool.argumentOrder = tool.argumentOrder.map((name) => (name === from ? to : name));
  const properties = tool.inputSchema.properties as Record<string, unknown>;
  properties[to] = properties[from];
  delete properties[from];
  if (Array.isArray(tool.inputSchema.required))
    tool.inputSchema.required = (tool.inputSchema.required as string[]).map((n) => (n === from ? to : n)).sort();
}

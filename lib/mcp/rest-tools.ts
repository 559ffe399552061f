import { createHash } from 'node:crypto';
import { followRef, isNode, type OasNode } from './oas-refs';
import { deriveArguments, RestToolsError, type ToolArgument } from './rest-tool-params';
import { outputSchema, type JsonSchema } from './rest-tool-schema';

export { RestToolsError } from './rest-tool-params';

/** MCP tool annotations (hints a client may show or act on). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** One operation of a REST API offered as an MCP tool, with what it takes to call it. */
export interface RestTool {
  /** the name agents call */
  name: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations: ToolAnnotations;
  /** the operation: `operationId:<id>`, or `http:<METHOD> <path>` for one without an operationId */
  sourceKey: string;
  operationId?: string;
  method: string;
  /** the OAS path template, `/pets/{petId}` */
  pathTemplate: string;
  arguments: Record<string, ToolArgument>;
  argumentOrder: string[];
  bodyContentType?: string;
}

/** An operation left out of the catalogue, and why. */
export interface DeriveWarning {
  operation: string;
  reason: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const MAX_TOOL_NAME = 128;
const VALID_TOOL_NAME = /^[A-Za-z0-9_.-]+$/;

interface Operation {
  method: string;
  path: string;
  pathItem: OasNode;
  operation: OasNode;
}

/**
 * Every operation of an OAS document as a tool, sorted by name. The name is the operationId;
 * an operation without one gets `<method>_<path>` (hashed when that is taken by an operationId
 * or another such name). Operations the document marks internal or blocked, or leaves out of
 * its allow-list, are skipped with a warning. Throws RestToolsError on two operations with one
 * name or a name an MCP client would refuse.
 */
export function deriveSourceTools(document: OasNode): { tools: RestTool[]; warnings: DeriveWarning[] } {
  const operations = listOperations(document);
  const visibility = readVisibility(document);
  const operationIds = new Set(operations.map((o) => operationIdOf(o)).filter((id) => id !== ''));
  const taken = new Set<string>();
  const tools: RestTool[] = [];
  const warnings: DeriveWarning[] = [];
  for (const op of operations) {
    const operationId = operationIdOf(op);
    const label = operationId || `${op.method} ${op.path}`;
    const skip = visibility.skipReason(operationId);
    if (skip) {
      warnings.push({ operation: label, reason: skip });
      continue;
    }
    const name = operationId || fallbackName(op.method, op.path, operationIds, taken);
    if (taken.has(name)) throw new RestToolsError(`duplicate tool name "${name}"`);
    taken.add(name);
    tools.push(toolOf(op, name, document));
  }
  for (const tool of tools) assertToolName(tool.name, tool.operationId ?? tool.sourceKey);
  return { tools: tools.sort((a, b) => compare(a.name, b.name)), warnings };
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The operation of a path and method, for a primitive that selects one without an operationId. */
export function findOperation(document: OasNode, method: string, path: string): Operation | undefined {
  return listOperations(document).find((o) => o.path === path && o.method === method.toUpperCase());
}

export function toolOf(op: Operation, name: string, document: OasNode): RestTool {
  const operationId = operationIdOf(op);
  const args = deriveArguments(op.pathItem, op.operation, document);
  const summary = typeof op.operation.summary === 'string' ? op.operation.summary : '';
  const description = summary || (typeof op.operation.description === 'string' ? op.operation.description : '');
  const output = outputSchema(op.operation, document);
  return {
    name,
    ...(description ? { description } : {}),
    inputSchema: args.inputSchema,
    ...(output ? { outputSchema: output } : {}),
    annotations: { title: summary || name, ...methodHints(op.method) },
    sourceKey: operationId ? `operationId:${operationId}` : pathMethodKey(op.method, op.path),
    ...(operationId ? { operationId } : {}),
    method: op.method,
    pathTemplate: op.path,
    arguments: args.arguments,
    argumentOrder: args.order,
    ...(args.bodyContentType ? { bodyContentType: args.bodyContentType } : {}),
  };
}

export function pathMethodKey(method: string, path: string): string {
  return `http:${method.trim().toUpperCase()} ${path.trim()}`;
}

/** Reads change nothing; PUT and DELETE change but the same way each time; the rest may not. */
function methodHints(method: string): ToolAnnotations {
  if (['GET', 'HEAD', 'OPTIONS', 'TRACE'].includes(method))
    return { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
  const idempotent = method === 'PUT' || method === 'DELETE';
  return { readOnlyHint: false, destructiveHint: true, idempotentHint: idempotent, openWorldHint: true };
}

export function assertToolName(name: string, source: string): void {
  if (!name) throw new RestToolsError(`${source}: invalid tool name: name is required`);
  if (name.length > MAX_TOOL_NAME)
    throw new RestToolsError(`${source}: invalid tool name "${name}": exceeds maximum length of ${MAX_TOOL_NAME}`);
  if (!VALID_TOOL_NAME.test(name))
    throw new RestToolsError(
      `${source}: invalid tool name "${name}": use ASCII letters, digits, underscores, hyphens, and dots only`,
    );
}

function listOperations(document: OasNode): Operation[] {
  const paths = isNode(document.paths) ? document.paths : {};
  const out: Operation[] = [];
  for (const path of Object.keys(paths).sort(compare)) {
    const pathItem = followRef(paths[path], document);
    if (!pathItem) continue;
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (isNode(operation)) out.push({ method: method.toUpperCase(), path, pathItem, operation });
    }
  }
  return out;
}

function operationIdOf(op: Operation): string {
  return typeof op.operation.operationId === 'string' ? op.operation.operationId.trim() : '';
}

/** `get_orders_id` for GET /orders/{id}; with a short hash of the operation when that name is taken. */
export function pathMethodName(method: string, path: string, hashed: boolean): string {
  const lowerMethod = method.trim().toLowerCase();
  const bare = path
    .trim()
    .replace(/^\/+|\/+$/g, '')
    .replace(/[{}]/g, '');
  const raw = bare ? `${lowerMethod}_${bare}` : lowerMethod;
  const name =
    raw
      .replace(/[^A-Za-z0-9_]/g, '_')
      .toLowerCase()
      .replace(/_+/g, '_')
      .replace(/^_+|_+$/g, '') || 'tool';
  if (!hashed && name.length <= MAX_TOOL_NAME) return name;
  const hash = createHash('sha1').update(`${lowerMethod.toUpperCase()} ${bare}`).digest('hex').slice(0, 8);
  const room = MAX_TOOL_NAME - hash.length - 1;
  const base = name.length > room ? name.slice(0, room).replace(/^_+|_+$/g, '') || 'tool' : name;
  return `${base}_${hash}`;
}

function fallbackName(method: string, path: string, operationIds: Set<string>, taken: Set<string>): string {
  const free = (name: string) => !operationIds.has(name) && !taken.has(name);
  const plain = pathMethodName(method, path, false);
  if (free(plain)) return plain;
  const hashed = pathMethodName(method, path, true);
  for (let suffix = 0; ; suffix++) {
    const candidate = suffix === 0 ? hashed : withSuffix(hashed, suffix);
    if (free(candidate)) return candidate;
  }
}

function withSuffix(name: string, suffix: number): string {
  const tail = `_${suffix}`;
  if (name.length + tail.length <= MAX_TOOL_NAME) return name + tail;
  return (name.slice(0, MAX_TOOL_NAME - tail.length).replace(/^_+|_+$/g, '') || 'tool') + tail;
}

/** The document's own operation rules (x-gw-api-gateway.middleware.operations): what is not for clients is not a tool. */
function readVisibility(document: OasNode) {
  const gateway = isNode(document['x-gw-api-gateway']) ? document['x-gw-api-gateway'] : {};
  const middleware = isNode(gateway.middleware) ? gateway.middleware : {};
  const operations = isNode(middleware.operations) ? middleware.operations : {};
  const enabled = (settings: unknown, key: string) =>
    isNode(settings) && isNode(settings[key]) && settings[key].enabled === true;
  const allowed = new Set(Object.keys(operations).filter((id) => enabled(operations[id], 'allow')));
  return {
    skipReason(operationId: string): string {
      if (!operationId)
        return allowed.size > 0 ? 'operation missing operationId while source allow-list enabled - skipped' : '';
      if (enabled(operations[operationId], 'internal')) return 'operation marked internal - skipped';
      if (enabled(operations[operationId], 'block')) return 'operation marked blocked - skipped';
      if (allowed.size > 0 && !allowed.has(operationId)) return 'operation not in source allow-list - skipped';
      return '';
    },
  };
}

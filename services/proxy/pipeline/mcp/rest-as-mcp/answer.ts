import {
  JsonRpcCodes,
  MCP_PROTOCOL_VERSIONS,
  rpcError,
  rpcResult,
  type JsonRpcId,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from '../../../../../lib/mcp/json-rpc';
import { buildRestRequest, InvalidToolArguments } from '../../../../../lib/mcp/rest-tool-request';
import type { RestTool } from '../../../../../lib/mcp/rest-tools';
import { argumentsProblem } from '../../../../../lib/mcp/tool-arguments';
import type { RestAnswer, RestCall } from './rest-call';

/**
 * Answers one MCP request for a REST API offered as MCP: initialize, ping, tools/list (the whole
 * catalogue, no cursor) and tools/call (a request through the REST API's chain, its answer the
 * tool's content). A notification (no id: initialized, cancelled) has no answer: undefined.
 */
export async function answerRestAsMcp(message: JsonRpcRequest, call: RestCall): Promise<JsonRpcResponse | undefined> {
  const id = message.id;
  if (id === undefined) return undefined;
  switch (message.method) {
    case 'initialize':
      return rpcResult(id, initializeResult(message.params, call));
    case 'ping':
      return rpcResult(id, {});
    case 'tools/list':
      return rpcResult(id, { tools: call.tools.map(listedTool) });
    case 'tools/call':
      return callTool(id, message, call);
    default:
      return rpcError(id, JsonRpcCodes.methodNotFound, `Method not found: ${message.method}`);
  }
}

function initializeResult(params: Record<string, unknown> | undefined, call: RestCall): Record<string, unknown> {
  const asked = params?.protocolVersion;
  const protocolVersion =
    typeof asked === 'string' && MCP_PROTOCOL_VERSIONS.includes(asked) ? asked : MCP_PROTOCOL_VERSIONS[0];
  return { protocolVersion, capabilities: { tools: { listChanged: false } }, serverInfo: call.serverInfo };
}

function listedTool(tool: RestTool): Record<string, unknown> {
  return {
    name: tool.name,
    ...(tool.description ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    annotations: tool.annotations,
  };
}

async function callTool(id: JsonRpcId, message: JsonRpcRequest, call: RestCall): Promise<JsonRpcResponse> {
  const name = message.params?.name;
  const tool = typeof name === 'string' ? call.tools.find((t) => t.name === name) : undefined;
  if (!tool) return rpcError(id, JsonRpcCodes.invalidParams, `unknown tool "${String(name)}"`);
  const args = message.params?.arguments ?? {};
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    return rpcError(id, JsonRpcCodes.invalidParams, 'invalid tools/call arguments: expected JSON object');
  const record = args as Record<string, unknown>;
  const problem = argumentsProblem(tool, record);
  if (problem) return rpcError(id, JsonRpcCodes.invalidParams, problem);
  let request;
  try {
    request = buildRestRequest(tool, record);
  } catch (err) {
    if (err instanceof InvalidToolArguments) return rpcError(id, JsonRpcCodes.invalidParams, err.message);
    throw err;
  }
  return rpcResult(id, toolResult(await call.send(request)));
}

/** The REST answer as the tool's result: its body as text, an error when not 2xx/3xx, its JSON as structuredContent. */
export function toolResult(answer: RestAnswer): Record<string, unknown> {
  const contentType = headerValue(answer.headers['content-type']);
  const isError = answer.status >= 400;
  const result: Record<string, unknown> = {
    content: [{ type: 'text', text: answer.body }],
    isError,
    _meta: { upstreamHttpStatus: answer.status, upstreamContentType: contentType },
  };
  if (!isError && isJson(contentType)) {
    const parsed = parseJson(answer.body);
    if (parsed !== undefined)
      result.structuredContent =
        typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : { result: parsed };
  }
  return result;
}

function headerValue(value: string | string[] | undefined): string {
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
}

function isJson(contentType: string): boolean {
  const media = contentType.split(';')[0].trim().toLowerCase();
  return media === 'application/json' || media.endsWith('+json');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

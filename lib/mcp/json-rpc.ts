export type JsonRpcId = string | number | null;

/** A JSON-RPC 2.0 request, or a notification when it has no id, as MCP clients send them. */
export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id?: JsonRpcId;
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** An answer: its `result`, or its `error`. */
export interface JsonRpcResponse {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result?: unknown;
  error?: JsonRpcError;
}

/**
 * The codes a refused message gets: the JSON-RPC ones, and the server range as the reference
 * gateway maps HTTP refusals into it (401 → -32001, 403 → -32002, 429 → -32003, upstream → -32004,
 * quota → -32005).
 */
export const JsonRpcCodes = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  authRequired: -32001,
  accessDenied: -32002,
  rateLimited: -32003,
  upstreamError: -32004,
  quotaExceeded: -32005,
} as const;

/** The MCP protocol revisions gw speaks (those of the official SDK it is tested with), newest first. */
export const MCP_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];

export function rpcResult(id: JsonRpcId, result: Record<string, unknown>): JsonRpcResponse {
  return { jsonrpc: '2.0', id, result };
}

export function rpcError(id: JsonRpcId, code: number, message: string): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

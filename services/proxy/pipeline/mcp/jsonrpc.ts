/** JSON-RPC 2.0 as MCP carries it: one message or a batch per POST body. */

import {
  JsonRpcCodes,
  type JsonRpcError,
  type JsonRpcId,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from '../../../../lib/mcp/json-rpc';

export {
  JsonRpcCodes,
  type JsonRpcError,
  type JsonRpcId,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from '../../../../lib/mcp/json-rpc';

/** What a POST body holds: its messages, whether they came as a batch, or why it is not JSON-RPC. */
export type ParsedBody = { ok: true; batch: boolean; messages: unknown[] } | { ok: false; error: JsonRpcResponse };

export function parseBody(raw: Buffer): ParsedBody {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    return { ok: false, error: errorResponse(null, JsonRpcCodes.parseError, 'Parse error') };
  }
  if (Array.isArray(value)) {
    if (value.length === 0)
      return { ok: false, error: errorResponse(null, JsonRpcCodes.invalidRequest, 'Invalid Request') };
    return { ok: true, batch: true, messages: value };
  }
  return { ok: true, batch: false, messages: [value] };
}

/** A request or notification; responses (a client answering the server's requests) are not. */
export function isRequestMessage(value: unknown): value is JsonRpcRequest {
  const message = value as Partial<JsonRpcRequest> | null;
  return (
    typeof message === 'object' &&
    message !== null &&
    message.jsonrpc === '2.0' &&
    typeof message.method === 'string' &&
    (message.params === undefined || (typeof message.params === 'object' && message.params !== null))
  );
}

/** A response the client sends to a server request (sampling, elicitation, roots). */
export function isResponseMessage(value: unknown): boolean {
  const message = value as Partial<JsonRpcResponse> | null;
  return (
    typeof message === 'object' &&
    message !== null &&
    message.jsonrpc === '2.0' &&
    'id' in message &&
    ('result' in message || 'error' in message)
  );
}

/** A notification has no id: nobody waits for an answer to it. */
export function isNotification(message: JsonRpcRequest): boolean {
  return !('id' in message) || message.id === undefined;
}

export function errorResponse(id: JsonRpcId, code: number, message: string, data?: unknown): JsonRpcResponse {
  const error: JsonRpcError = data === undefined ? { code, message } : { code, message, data };
  return { jsonrpc: '2.0', id, error };
}

/** The code for a refusal the gateway answers with an HTTP status (its authentication, its limits, its errors). */
export function codeForStatus(status: number, quota: boolean): number {
  switch (status) {
    case 400:
    case 405:
      return JsonRpcCodes.invalidRequest;
    case 401:
      return JsonRpcCodes.authRequired;
    case 403:
      return quota ? JsonRpcCodes.quotaExceeded : JsonRpcCodes.accessDenied;
    case 404:
      return JsonRpcCodes.methodNotFound;
    case 429:
      return JsonRpcCodes.rateLimited;
    case 502:
    case 503:
    case 504:
      return JsonRpcCodes.upstreamError;
    default:
      return status >= 500 ? JsonRpcCodes.internalError : -32000;
  }
}

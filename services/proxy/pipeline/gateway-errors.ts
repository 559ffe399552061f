import type { ServerResponse } from 'node:http';
import { isGrpcRequest } from './grpc/grpc-request';
import { GrpcStatus, endGrpcStream, grpcStatusFor, sendGrpcStatus } from './grpc/grpc-status';
import { answersAsJsonRpc } from './mcp/json-rpc-errors';
import { codeForStatus } from './mcp/jsonrpc';

/**
 * Every error the gateway itself answers with is JSON `{"error": "<message>"}` with an
 * `X-Generator` header, as in the reference gateway. The messages are the reference's.
 */
export const GatewayMessages = {
  notFound: 'Not Found',
  upstreamFailed: 'There was a problem proxying the request',
  upstreamTimeout: 'Upstream service reached hard timeout.',
  authFieldMissing: 'Authorization field missing',
  accessDisallowed: 'Access to this API has been disallowed',
  versionExpired: 'Api Version has expired, please check documentation or contact administrator',
  versionMissing: 'Version information not found',
  versionUnknown: 'This API version does not seem to exist',
  endpointForbidden: 'Requested endpoint is forbidden',
  requestTooLarge: 'Request is too large',
  lengthRequired: 'Content length is required for this request',
  lengthInvalid: 'Content length is not a valid integer',
  /** Go's URL parser's words for what its HTTP server refuses with 400 */
  malformedPath: 'Bad Request: invalid URL escape in the path',
  ipDisallowed: 'access from this IP has been disallowed',
  internal: 'There was an internal error processing the request',
  /** gw's own: the optional isolated-vm package is not installed or does not load */
  virtualUnavailable: 'Virtual endpoints are not available on this gateway (isolated-vm is not installed)',
  keyStoreUnavailable: 'The key store is not reachable, please try again later',
  keyExpired: 'Key has expired, please renew',
  keyInactive: 'Key is inactive, please renew',
  resourceDisallowed: 'Access to this resource has been disallowed',
  rateLimited: 'Rate Limit Exceeded',
  apiRateLimited: 'API Rate Limit Exceeded',
  quotaExceeded: 'Quota exceeded',
  limiterUnavailable: 'The rate limiter store is not reachable, please try again later',
  // an organisation session's refusals (the reference's texts, capital letters as there)
  orgInactive: 'this organisation access has been disabled, please contact your API administrator',
  orgQuotaExceeded: 'This organisation quota has been exceeded, please contact your API administrator',
  orgRateLimited: 'This organisation rate limit has been exceeded, please contact your API administrator',
} as const;

export function sendGatewayError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (answeredAsGrpc(res, status, message, headers)) return;
  if (answersAsJsonRpc(res)) {
    const code = codeForStatus(status, message === GatewayMessages.quotaExceeded);
    return sendJson(res, status, { jsonrpc: '2.0', id: null, error: { code, message } }, headers);
  }
  sendJson(res, status, { error: message }, headers);
}

/**
 * A gRPC client reads no JSON body: a refused gRPC call gets a gRPC status instead (quota
 * exhausted, like a rate limit, is RESOURCE_EXHAUSTED rather than the 403's PERMISSION_DENIED),
 * and an HTTP/2 one whose answer has begun ends with the status in its trailers. False when the
 * call is not gRPC or its answer cannot take a status any more (it is then reset).
 */
function answeredAsGrpc(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string>,
): boolean {
  if (!res.req || !isGrpcRequest(res.req)) return false;
  const code = message === GatewayMessages.quotaExceeded ? GrpcStatus.RESOURCE_EXHAUSTED : grpcStatusFor(status);
  if (!res.headersSent) sendGrpcStatus(res, status, code, message, headers);
  else if (res.req.httpVersionMajor === 2 && !res.writableEnded) endGrpcStream(res, status, code, message);
  else return false;
  return true;
}

/** A JSON answer made by the gateway itself (errors, GraphQL errors, batch results). */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'x-generator': 'gw',
  });
  res.end(text);
}

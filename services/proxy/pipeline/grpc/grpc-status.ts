import type { ServerResponse } from 'node:http';

/** The gRPC status codes the gateway answers with (grpc/doc/statuscodes.md). */
export const GrpcStatus = {
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
  UNKNOWN: 2,
} as const;

export type GrpcStatusCode = (typeof GrpcStatus)[keyof typeof GrpcStatus];

const BY_HTTP_STATUS: Record<number, GrpcStatusCode> = {
  400: GrpcStatus.INVALID_ARGUMENT,
  401: GrpcStatus.UNAUTHENTICATED,
  403: GrpcStatus.PERMISSION_DENIED,
  404: GrpcStatus.UNIMPLEMENTED,
  405: GrpcStatus.UNIMPLEMENTED,
  408: GrpcStatus.DEADLINE_EXCEEDED,
  411: GrpcStatus.INVALID_ARGUMENT,
  413: GrpcStatus.RESOURCE_EXHAUSTED,
  429: GrpcStatus.RESOURCE_EXHAUSTED,
  500: GrpcStatus.INTERNAL,
  502: GrpcStatus.UNAVAILABLE,
  503: GrpcStatus.UNAVAILABLE,
  504: GrpcStatus.DEADLINE_EXCEEDED,
};

/**
 * The gRPC status for a refusal the gateway answers with this HTTP status: a client library
 * only reads grpc-status. Anything without a closer meaning is UNKNOWN.
 */
export function grpcStatusFor(httpStatus: number): GrpcStatusCode {
  return BY_HTTP_STATUS[httpStatus] ?? GrpcStatus.UNKNOWN;
}

/**
 * `grpc-message` is percent-encoded UTF-8: every byte outside printable ASCII, and `%`
 * itself, becomes %XX (gRPC over HTTP/2, Status-Message).
 */
export function encodeGrpcMessage(message: string): string {
  let out = '';
  for (const byte of Buffer.from(message, 'utf8')) {
    out +=
      byte >= 0x20 && byte <= 0x7e && byte !== 0x25
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const REFUSED_WITH = Symbol('gw.grpcRefusedWith');
type RefusedResponse = ServerResponse & { [REFUSED_WITH]?: number };

/**
 * Answers a gRPC call the gateway refuses as "trailers-only": HTTP 200 with the status in the
 * only header block (the stream ends with it), the way a gRPC server refuses a call. `headers`
 * (a challenge, rate-limit counters) go along as metadata.
 */
export function sendGrpcStatus(
  res: ServerResponse,
  httpStatus: number,
  code: GrpcStatusCode,
  message: string,
  headers: Record<string, string>,
): void {
  (res as RefusedResponse)[REFUSED_WITH] = httpStatus;
  // Headers set, not written: ending an unwritten HTTP/2 response sends its headers with
  // END_STREAM (writeHead first would send an empty DATA frame to end the stream after them).
  res.statusCode = 200;
  for (const name in headers) res.setHeader(name, headers[name]);
  res.setHeader('content-type', 'application/grpc');
  res.setHeader('grpc-status', String(code));
  res.setHeader('grpc-message', encodeGrpcMessage(message));
  res.setHeader('x-generator', 'gw');
  res.end();
}

/**
 * Ends a gRPC answer already under way (the upstream failed mid-stream) with the status in its
 * trailers, as a gRPC server ends a call it cannot finish: the client then reads UNAVAILABLE, not
 * the INTERNAL "ended without a status" of a reset stream. HTTP/2 only (HTTP/1.1 gRPC clients
 * do not exist to speak of, and a stated length would drop trailers).
 */
export function endGrpcStream(res: ServerResponse, httpStatus: number, code: GrpcStatusCode, message: string): void {
  (res as RefusedResponse)[REFUSED_WITH] = httpStatus;
  res.addTrailers({ 'grpc-status': String(code), 'grpc-message': encodeGrpcMessage(message) });
  res.end();
}

/**
 * The status a response stands for in analytics and metrics: the HTTP status the gateway
 * refused a gRPC call with (it went out as HTTP 200 with a grpc-status), else the one sent.
 */
export function answeredStatus(res: ServerResponse): number {
  return (res as RefusedResponse)[REFUSED_WITH] ?? res.statusCode;
}

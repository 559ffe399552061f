import type { IncomingMessage } from 'node:http';

/** A gRPC call: its content-type is application/grpc, alone or with a codec (`+proto`, `+json`). */
export function isGrpcRequest(req: Pick<IncomingMessage, 'headers'>): boolean {
  const type = req.headers['content-type'];
  return type !== undefined && type.length >= 16 && type.slice(0, 16).toLowerCase() === 'application/grpc';
}

/**
 * The gRPC rows of bench:proxy: the upstream (grpc-upstream.js), the gw API routing its service
 * to it over h2c, the body h2load sends, and the one call made with a real gRPC client before
 * the rounds. h2load sees HTTP statuses only, and a gRPC failure is an HTTP 200 whose trailers
 * carry a grpc-status other than 0: without this call a gateway answering every call with an
 * error would be measured as a fast one.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startNode } from './systems';

const grpc = () => import('@grpc/grpc-js');

export const GRPC_SERVICE = 'bench.Bench';
export const GRPC_METHOD = `/${GRPC_SERVICE}/Echo`;
/** the server grpc-upstream.js runs: grpc-js, or a minimal node:http2 one (BENCH_GRPC_SERVER=http2) */
export const GRPC_SERVER = process.env.BENCH_GRPC_SERVER === 'http2' ? 'http2' : 'grpc-js';

/** A protobuf message with one string field, `bench` (7 bytes), as the request of every call. */
const REQUEST = Buffer.from([0x0a, 0x05, ...Buffer.from('bench')]);

export async function startGrpcUpstream(port: number): Promise<number> {
  const child = await startNode(join(__dirname, 'grpc-upstream.js'), {
    PORT: String(port),
    GRPC_SERVER,
  });
  return child.pid!;
}

/** A keyless API whose listen path is the service's, sending its calls to the upstream over h2c. */
export function grpcApi(grpcPort: number): Record<string, unknown> {
  return {
    api_id: 'grpc-api',
    name: 'grpc api',
    use_keyless: true,
    active: true,
    proxy: { listen_path: `/${GRPC_SERVICE}/`, target_url: `h2c://127.0.0.1:${grpcPort}`, strip_listen_path: false },
  };
}

/** The request body of a unary call as h2load sends it: the message behind gRPC's 5-byte prefix (not compressed, length). */
export function writeGrpcBody(work: string): string {
  const file = join(work, 'grpc-request.bin');
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(REQUEST.length, 1);
  writeFileSync(file, Buffer.concat([prefix, REQUEST]));
  return file;
}

/** The headers of a gRPC call that h2load does not send of itself. */
export const GRPC_HEADERS = { 'content-type': 'application/grpc', te: 'trailers' };

/**
 * One unary call with grpc-js to `baseUrl` (http://host:port): it must end with grpc-status 0
 * (OK) and the upstream's 40-byte message, or the benchmark stops.
 */
export async function checkUnaryCall(baseUrl: string): Promise<void> {
  const { Client, credentials, Metadata } = await grpc();
  const client = new Client(new URL(baseUrl).host, credentials.createInsecure());
  const identity = (buffer: Buffer) => buffer;
  try {
    const { reply, status } = await new Promise<{ reply?: Buffer; status: { code: number; details: string } }>(
      (resolvePromise, reject) => {
        let reply: Buffer | undefined;
        const call = client.makeUnaryRequest(
          GRPC_METHOD,
          identity,
          identity,
          REQUEST,
          new Metadata(),
          { deadline: Date.now() + 5000 },
          (err, value) => {
            if (err) reject(new Error(`the gRPC call through ${baseUrl} failed: ${err.message}`));
            else reply = value;
          },
        );
        call.on('status', (status) => resolvePromise({ reply, status }));
      },
    );
    if (status.code !== 0 || reply?.length !== 40)
      throw new Error(
        `the gRPC call through ${baseUrl} ended with grpc-status ${status.code} (${status.details}) and a ${reply?.length}-byte reply`,
      );
  } finally {
    client.close();
  }
}

import type { EventEmitter } from 'node:events';
import { join } from 'node:path';
import type { ServerHttp2Stream } from 'node:http2';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';

/** The service in test/fixtures/grpc/echo.proto. */
export const ECHO_SERVICE = 'gw.test.Echo';

export interface EchoRequest {
  text?: string;
  amount?: number;
}

export interface EchoReply {
  text: string;
  index: number;
}

/** One call the service received: the method's name and the request metadata it came with. */
export interface ReceivedCall {
  method: string;
  metadata: Record<string, string>;
}

export interface GrpcService {
  /** host:port, as a grpc-js client or a gw target takes it */
  address: string;
  /** every call received, in order */
  calls: ReceivedCall[];
  close(): Promise<void>;
}

const PROTO = join(__dirname, '..', 'fixtures', 'grpc', 'echo.proto');

function echoDefinition(): grpc.ServiceClientConstructor {
  const definition = protoLoader.loadSync(PROTO, { keepCase: true, defaults: true });
  const loaded = grpc.loadPackageDefinition(definition) as unknown as {
    gw: { test: { Echo: grpc.ServiceClientConstructor } };
  };
  return loaded.gw.test.Echo;
}

/**
 * The request metadata as plain text values (binary `-bin` entries as base64), without the
 * headers grpc-js adds on every call, so a test sees what its client and the gateway sent.
 */
function metadataOf(metadata: grpc.Metadata): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(metadata.getMap())) {
    out[name] = Buffer.isBuffer(value) ? value.toString('base64') : value;
  }
  return out;
}

/** What every answer carries: the method as trailing metadata, and the caller's `x-reply-trailer` back. */
function trailersFor(method: string, request: grpc.Metadata): grpc.Metadata {
  const trailers = new grpc.Metadata();
  trailers.set('x-echo-method', method);
  const asked = request.get('x-reply-trailer')[0];
  if (asked !== undefined) trailers.set('x-reply-trailer', String(asked));
  return trailers;
}

function initialMetadata(): grpc.Metadata {
  const headers = new grpc.Metadata();
  headers.set('x-echo-initial', 'yes');
  return headers;
}

/**
 * The HTTP/2 stream under a grpc-js server call. grpc-js does not expose it; the Collapse method
 * needs it to drop its connection the way a crashed server would (no status, no trailers).
 */
function streamOf(call: grpc.ServerWritableStream<EchoRequest, EchoReply>): ServerHttp2Stream {
  const stream = (call as unknown as { call?: { stream?: ServerHttp2Stream } }).call?.stream;
  if (!stream?.session) throw new Error('grpc-js internals changed: the call has no HTTP/2 stream');
  return stream;
}

/**
 * Starts the Echo service (test/fixtures/grpc/echo.proto) on 127.0.0.1 with a port picked by the
 * OS: cleartext HTTP/2 (h2c) or, with `tls`, HTTP/2 over TLS. `Unary` with text `fail` answers
 * NOT_FOUND with trailing metadata, as an upstream's own error status.
 */
export async function startGrpcService(options: { tls?: { cert: string; key: string } } = {}): Promise<GrpcService> {
  const calls: ReceivedCall[] = [];
  const received = (method: string, metadata: grpc.Metadata) => calls.push({ method, metadata: metadataOf(metadata) });
  const server = new grpc.Server();
  server.addService(echoDefinition().service, {
    Unary(call: grpc.ServerUnaryCall<EchoRequest, EchoReply>, callback: grpc.sendUnaryData<EchoReply>) {
      received('Unary', call.metadata);
      call.sendMetadata(initialMetadata());
      const trailers = trailersFor('Unary', call.metadata);
      if (call.request.text === 'fail')
        return callback({ code: grpc.status.NOT_FOUND, details: 'no such echo', metadata: trailers });
      callback(null, { text: call.request.text ?? '', index: 0 }, trailers);
    },
    Expand(call: grpc.ServerWritableStream<EchoRequest, EchoReply>) {
      received('Expand', call.metadata);
      call.sendMetadata(initialMetadata());
      for (let index = 0; index < (call.request.amount ?? 0); index++)
        call.write({ text: `${call.request.text ?? ''} ${index}`, index });
      call.end(trailersFor('Expand', call.metadata));
    },
    Collect(call: grpc.ServerReadableStream<EchoRequest, EchoReply>, callback: grpc.sendUnaryData<EchoReply>) {
      received('Collect', call.metadata);
      const texts: string[] = [];
      call.on('data', (request: EchoRequest) => texts.push(request.text ?? ''));
      call.on('end', () =>
        callback(null, { text: texts.join(' '), index: texts.length }, trailersFor('Collect', call.metadata)),
      );
    },
    Chat(call: grpc.ServerDuplexStream<EchoRequest, EchoReply>) {
      received('Chat', call.metadata);
      let index = 0;
      call.on('data', (request: EchoRequest) => call.write({ text: `echo ${request.text ?? ''}`, index: index++ }));
      call.on('end', () => call.end(trailersFor('Chat', call.metadata)));
    },
    Slow(call: grpc.ServerUnaryCall<EchoRequest, EchoReply>, callback: grpc.sendUnaryData<EchoReply>) {
      received('Slow', call.metadata);
      const timer = setTimeout(
        () => callback(null, { text: call.request.text ?? '', index: 0 }, trailersFor('Slow', call.metadata)),
        call.request.amount ?? 0,
      );
      call.on('cancelled', () => clearTimeout(timer));
    },
    Collapse(call: grpc.ServerWritableStream<EchoRequest, EchoReply>) {
      received('Collapse', call.metadata);
      const stream = streamOf(call);
      call.sendMetadata(initialMetadata());
      const amount = call.request.amount ?? 0;
      for (let index = 0; index < amount; index++) call.write({ text: `${call.request.text ?? ''} ${index}`, index });
      // Once the replies have left, the connection goes, mid-stream.
      const collapse = () => stream.session?.destroy();
      if (amount === 0) collapse();
      else call.write({ text: 'last words', index: amount }, collapse);
    },
  });
  const credentials = options.tls
    ? grpc.ServerCredentials.createSsl(null, [
        { cert_chain: Buffer.from(options.tls.cert), private_key: Buffer.from(options.tls.key) },
      ])
    : grpc.ServerCredentials.createInsecure();
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', credentials, (err, bound) => (err ? reject(err) : resolve(bound))),
  );
  return {
    address: `127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.tryShutdown(() => resolve());
        // Calls still open (a Slow one, a stream a test left) must not hold the shutdown.
        setTimeout(() => server.forceShutdown(), 500).unref();
      }),
  };
}

export interface CallOptions {
  /** request metadata */
  metadata?: Record<string, string>;
  /** the call's deadline, in ms from now */
  deadlineMs?: number;
}

/** How a call ended: the replies received, the initial metadata and the status with its trailing metadata. */
export interface CallOutcome {
  replies: EchoReply[];
  headers: Record<string, string>;
  status: { code: grpc.status; details: string; trailers: Record<string, string> };
}

export interface EchoClient {
  unary(request: EchoRequest, options?: CallOptions): Promise<CallOutcome>;
  expand(request: EchoRequest, options?: CallOptions): Promise<CallOutcome>;
  collect(requests: EchoRequest[], options?: CallOptions): Promise<CallOutcome>;
  chat(requests: EchoRequest[], options?: CallOptions): Promise<CallOutcome>;
  slow(request: EchoRequest, options?: CallOptions): Promise<CallOutcome>;
  collapse(request: EchoRequest, options?: CallOptions): Promise<CallOutcome>;
  close(): void;
}

/** Every grpc-js call is an event emitter (metadata, data, error, status). */
type AnyCall = EventEmitter;

/**
 * Waits for a call's status (it comes for successes and failures alike); a failed call's status
 * is the outcome, not a rejection, so a test asserts the code it expects.
 */
function outcomeOf(call: AnyCall, replies: EchoReply[]): Promise<CallOutcome> {
  let headers: Record<string, string> = {};
  call.on('metadata', (metadata: grpc.Metadata) => (headers = metadataOf(metadata)));
  call.on('error', () => {});
  return new Promise((resolve) =>
    call.on('status', (status: grpc.StatusObject) =>
      resolve({
        replies,
        headers,
        status: { code: status.code, details: status.details, trailers: metadataOf(status.metadata) },
      }),
    ),
  );
}

/**
 * A grpc-js client of the Echo service at `address` (a gateway or the service itself):
 * cleartext HTTP/2, or TLS trusting `ca` and expecting a certificate for `serverName`
 * (localhost unless given: TLS names no IP address). `authority` is the `:authority` its calls
 * name (the address unless given), as a gateway routing by domain sees it.
 */
export function echoClient(
  address: string,
  options: { ca?: string; serverName?: string; authority?: string } = {},
): EchoClient {
  const Echo = echoDefinition();
  const credentials = options.ca
    ? grpc.credentials.createSsl(Buffer.from(options.ca))
    : grpc.credentials.createInsecure();
  const channelOptions: grpc.ChannelOptions = {};
  if (options.ca) channelOptions['grpc.ssl_target_name_override'] = options.serverName ?? 'localhost';
  if (options.authority) channelOptions['grpc.default_authority'] = options.authority;
  const client = new Echo(address, credentials, channelOptions) as unknown as Record<
    string,
    (...args: unknown[]) => AnyCall
  > &
    grpc.Client;
  const metadataFrom = (options: CallOptions) => {
    const metadata = new grpc.Metadata();
    for (const [name, value] of Object.entries(options.metadata ?? {})) metadata.set(name, value);
    return metadata;
  };
  const callOptions = (options: CallOptions): grpc.CallOptions =>
    options.deadlineMs === undefined ? {} : { deadline: Date.now() + options.deadlineMs };
  const unary =
    (method: string) =>
    (request: EchoRequest, options: CallOptions = {}) => {
      const replies: EchoReply[] = [];
      const call = client[method](
        request,
        metadataFrom(options),
        callOptions(options),
        (_err: unknown, reply?: EchoReply) => {
          if (reply) replies.push(reply);
        },
      );
      return outcomeOf(call, replies);
    };
  const serverStream =
    (method: string) =>
    (request: EchoRequest, options: CallOptions = {}) => {
      const replies: EchoReply[] = [];
      const call = client[method](request, metadataFrom(options), callOptions(options));
      call.on('data', (reply: EchoReply) => replies.push(reply));
      return outcomeOf(call, replies);
    };
  return {
    unary: unary('Unary'),
    slow: unary('Slow'),
    expand: serverStream('Expand'),
    collapse: serverStream('Collapse'),
    collect(requests, options = {}) {
      const replies: EchoReply[] = [];
      const call = client.Collect(metadataFrom(options), callOptions(options), (_err: unknown, reply?: EchoReply) => {
        if (reply) replies.push(reply);
      }) as grpc.ClientWritableStream<EchoRequest>;
      const outcome = outcomeOf(call, replies);
      for (const request of requests) call.write(request);
      call.end();
      return outcome;
    },
    chat(requests, options = {}) {
      const replies: EchoReply[] = [];
      const call = client.Chat(metadataFrom(options), callOptions(options)) as grpc.ClientDuplexStream<
        EchoRequest,
        EchoReply
      >;
      // Each request is sent once the answer to the one before has come back: both ways at once.
      let next = 0;
      const sendNext = () => (next < requests.length ? call.write(requests[next++]) : call.end());
      call.on('data', (reply: EchoReply) => {
        replies.push(reply);
        sendNext();
      });
      const outcome = outcomeOf(call, replies);
      sendNext();
      return outcome;
    },
    close: () => client.close(),
  };
}

import { Server as GrpcServer, ServerCredentials, type ServerUnaryCall, type sendUnaryData } from '@grpc/grpc-js';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { close, listen } from '../../lib/http/listen';
import { eventually } from './eventually';

export type AttributeValue = string | number | boolean;

/** One span as the collector received it; ids in hex, `kind` as OTLP numbers it (1 internal, 2 server, 3 client). */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, AttributeValue>;
  /** 0 unset, 1 ok, 2 error */
  status: { code: number; message: string };
  resource: Record<string, AttributeValue>;
}

export const SPAN_KIND = { internal: 1, server: 2, client: 3, producer: 4 } as const;

export interface OtlpReceiver {
  /** OTLP/HTTP base address (`http://127.0.0.1:<port>`); traces go to `/v1/traces` */
  httpUrl: string;
  /** OTLP/gRPC address (`127.0.0.1:<port>`) */
  grpcAddress: string;
  spans: ReceivedSpan[];
  /** the content type (or `grpc`) of each export received */
  exports: string[];
  /** waits until the spans received include one `match` accepts, and returns it */
  waitForSpan(match: (span: ReceivedSpan) => boolean, withinMs?: number): Promise<ReceivedSpan>;
  close(): Promise<void>;
}

/**
 * A local OpenTelemetry collector for tests: takes OTLP/HTTP exports in protobuf or JSON on
 * `/v1/traces`, and OTLP/gRPC exports, and keeps every span it decoded.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const exports: string[] = [];
  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const type = String(req.headers['content-type'] ?? '');
      if (req.url !== '/v1/traces' || req.method !== 'POST') {
        res.writeHead(404).end();
        return;
      }
      try {
        spans.push(...(type.includes('json') ? fromJson(JSON.parse(body.toString('utf8'))) : fromProtobuf(body)));
        exports.push(type);
        res.writeHead(200, { 'content-type': type.includes('json') ? 'application/json' : 'application/x-protobuf' });
        res.end(type.includes('json') ? '{}' : Buffer.alloc(0));
      } catch (err) {
        res.writeHead(400).end((err as Error).message);
      }
    });
  });
  const httpPort = await listen(http, 0, '127.0.0.1');
  const grpc = new GrpcServer();
  grpc.addService(
    {
      Export: {
        path: '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
        requestStream: false,
        responseStream: false,
        requestSerialize: (value: Buffer) => value,
        requestDeserialize: (bytes: Buffer) => bytes,
        responseSerialize: () => Buffer.alloc(0),
        responseDeserialize: (bytes: Buffer) => bytes,
      },
    },
    {
      Export: (call: ServerUnaryCall<Buffer, Buffer>, callback: sendUnaryData<Buffer>) => {
        spans.push(...fromProtobuf(call.request));
        exports.push('grpc');
        callback(null, Buffer.alloc(0));
      },
    },
  );
  const grpcPort = await new Promise<number>((resolve, reject) =>
    grpc.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, port) =>
      err ? reject(err) : resolve(port),
    ),
  );
  return {
    httpUrl: `http://127.0.0.1:${httpPort}`,
    grpcAddress: `127.0.0.1:${grpcPort}`,
    spans,
    exports,
    waitForSpan: (match, withinMs = 10_000) =>
      eventually(
        () => {
          const found = spans.find(match);
          if (!found) throw new Error(`no such span among ${spans.length}: ${spans.map((s) => s.name).join(', ')}`);
          return found;
        },
        withinMs,
        25,
      ),
    close: async () => {
      grpc.forceShutdown();
      await close(http);
    },
  };
}

// ---- OTLP/JSON -------------------------------------------------------------------------------

interface JsonKeyValue {
  key: string;
  value: Record<string, unknown>;
}

function fromJson(request: {
  resourceSpans?: Array<{
    resource?: { attributes?: JsonKeyValue[] };
    scopeSpans?: Array<{ spans?: Array<Record<string, unknown>> }>;
  }>;
}): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const resourceSpans of request.resourceSpans ?? []) {
    const resource = jsonAttributes(resourceSpans.resource?.attributes);
    for (const scope of resourceSpans.scopeSpans ?? [])
      for (const span of scope.spans ?? []) {
        const status = (span.status ?? {}) as { code?: number; message?: string };
        out.push({
          traceId: String(span.traceId ?? ''),
          spanId: String(span.spanId ?? ''),
          parentSpanId: String(span.parentSpanId ?? ''),
          name: String(span.name ?? ''),
          kind: Number(span.kind ?? 0),
          attributes: jsonAttributes(span.attributes as JsonKeyValue[] | undefined),
          status: { code: Number(status.code ?? 0), message: status.message ?? '' },
          resource,
        });
      }
  }
  return out;
}

function jsonAttributes(list: JsonKeyValue[] | undefined): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const { key, value } of list ?? []) {
    if ('stringValue' in value) out[key] = String(value.stringValue);
    else if ('boolValue' in value) out[key] = Boolean(value.boolValue);
    else if ('intValue' in value) out[key] = Number(value.intValue);
    else if ('doubleValue' in value) out[key] = Number(value.doubleValue);
  }
  return out;
}

// ---- OTLP/protobuf: just enough of the wire format for the fields above ---------------------

interface Field {
  number: number;
  /** varint value, or the bytes of a length-delimited field, or the 8/4 raw bytes */
  varint?: bigint;
  bytes?: Buffer;
}

function* fields(buffer: Buffer): Generator<Field> {
  let at = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = buffer[at++];
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  while (at < buffer.length) {
    const key = Number(varint());
    const number = key >>> 3;
    const wire = key & 7;
    if (wire === 0) yield { number, varint: varint() };
    else if (wire === 2) {
      const length = Number(varint());
      yield { number, bytes: buffer.subarray(at, at + length) };
      at += length;
    } else if (wire === 1) {
      yield { number, bytes: buffer.subarray(at, at + 8) };
      at += 8;
    } else if (wire === 5) {
      yield { number, bytes: buffer.subarray(at, at + 4) };
      at += 4;
    } else throw new Error(`unsupported protobuf wire type ${wire}`);
  }
}

function fromProtobuf(request: Buffer): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const resourceSpans of fields(request)) {
    if (resourceSpans.number !== 1 || !resourceSpans.bytes) continue;
    let resource: Record<string, AttributeValue> = {};
    const scopes: Buffer[] = [];
    for (const field of fields(resourceSpans.bytes)) {
      if (field.number === 1 && field.bytes) resource = protobufAttributes(field.bytes, 1);
      if (field.number === 2 && field.bytes) scopes.push(field.bytes);
    }
    for (const scope of scopes)
      for (const field of fields(scope))
        if (field.number === 2 && field.bytes) out.push(protobufSpan(field.bytes, resource));
  }
  return out;
}

function protobufSpan(bytes: Buffer, resource: Record<string, AttributeValue>): ReceivedSpan {
  const span: ReceivedSpan = {
    traceId: '',
    spanId: '',
    parentSpanId: '',
    name: '',
    kind: 0,
    attributes: {},
    status: { code: 0, message: '' },
    resource,
  };
  for (const field of fields(bytes)) {
    if (field.number === 1) span.traceId = field.bytes!.toString('hex');
    else if (field.number === 2) span.spanId = field.bytes!.toString('hex');
    else if (field.number === 4) span.parentSpanId = field.bytes!.toString('hex');
    else if (field.number === 5) span.name = field.bytes!.toString('utf8');
    else if (field.number === 6) span.kind = Number(field.varint);
    else if (field.number === 9) Object.assign(span.attributes, keyValue(field.bytes!));
    else if (field.number === 15)
      for (const part of fields(field.bytes!)) {
        if (part.number === 2) span.status.message = part.bytes!.toString('utf8');
        if (part.number === 3) span.status.code = Number(part.varint);
      }
  }
  return span;
}

/** The KeyValue entries under `number` of a message (Resource: 1). */
function protobufAttributes(message: Buffer, number: number): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const field of fields(message))
    if (field.number === number && field.bytes) Object.assign(out, keyValue(field.bytes));
  return out;
}

function keyValue(bytes: Buffer): Record<string, AttributeValue> {
  let key = '';
  let value: AttributeValue = '';
  for (const field of fields(bytes)) {
    if (field.number === 1) key = field.bytes!.toString('utf8');
    if (field.number === 2)
      for (const any of fields(field.bytes!)) {
        if (any.number === 1) value = any.bytes!.toString('utf8');
        else if (any.number === 2) value = any.varint !== 0n;
        else if (any.number === 3) value = Number(BigInt.asIntN(64, any.varint!));
        else if (any.number === 4) value = any.bytes!.readDoubleLE(0);
      }
  }
  return { [key]: value };
}

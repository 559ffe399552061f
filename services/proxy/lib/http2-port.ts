import type { IncomingHttpHeaders, OutgoingHttpHeaders, Server as HttpServer } from 'node:http';
import {
  createServer,
  Http2ServerRequest,
  Http2ServerResponse,
  type Http2SecureServer,
  type Http2Server,
  type Http2Session,
  type Http2Stream,
  type ServerOptions,
} from 'node:http2';
import type { Socket } from 'node:net';
import type { GwConfig } from '../../../lib/config/load-config';

export type Http2Limits = Pick<
  GwConfig,
  | 'http2MaxConcurrentStreams'
  | 'http2IdleTimeout'
  | 'http2MaxHeaderListSize'
  | 'http2MaxSessionMemory'
  | 'http2MaxInvalidFrames'
  | 'http2MaxRejectedStreams'
>;

/** Fields HTTP/2 forbids (RFC 9113 §8.2.2): they describe an HTTP/1.1 connection, and node throws on them. */
const CONNECTION_SPECIFIC: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
]);

/**
 * An HTTP/2 request as the gateway's handlers expect an HTTP/1.1 one: `headers` without the
 * pseudo-headers (`:method`, `:path` stay readable as `method` and `url`), `Host` from
 * `:authority` (routing by domain, X-Forwarded-Host, a preserved Host), and a body without a
 * stated length marked as HTTP/1.1 marks one (`Transfer-Encoding: chunked`, never forwarded:
 * it is hop-by-hop), so the checks that look for a body (size limits, the upstream request) see it.
 */
export class GatewayHttp2Request extends Http2ServerRequest {
  constructor(stream: Http2Stream, headers: IncomingHttpHeaders, options: object, rawHeaders: string[]) {
    super(stream as never, headers, options, rawHeaders);
    const normalised: IncomingHttpHeaders = {};
    for (const name in headers) if (name.charCodeAt(0) !== 0x3a) normalised[name] = headers[name];
    const authority = headers[':authority'];
    // :authority wins over a Host field that says otherwise (RFC 9113 §8.3.1)
    if (typeof authority === 'string') normalised.host = authority;
    if (normalised['content-length'] === undefined && !stream.endAfterHeaders)
      normalised['transfer-encoding'] = 'chunked';
    // shadows the prototype's getter; `method` and `url` read the stream's own header object
    Object.defineProperty(this, 'headers', { value: normalised, writable: true, enumerable: true });
  }
}

/**
 * An HTTP/2 response that drops the connection-specific fields any writer may set (a plugin, a
 * mock, a header transform, an upstream's `Keep-Alive`): node would throw on them, or warn.
 */
export class GatewayHttp2Response extends Http2ServerResponse {
  override setHeader(name: string, value: number | string | readonly string[]): this {
    if (!CONNECTION_SPECIFIC.has(name.toLowerCase())) super.setHeader(name, value);
    return this;
  }

  override appendHeader(name: string, value: string | string[]): this {
    if (!CONNECTION_SPECIFIC.has(name.toLowerCase())) super.appendHeader(name, value);
    return this;
  }

  override writeHead(statusCode: number, headers?: OutgoingHttpHeaders | readonly string[]): this;
  override writeHead(
    statusCode: number,
    statusMessage: string,
    headers?: OutgoingHttpHeaders | readonly string[],
  ): this;
  override writeHead(
    statusCode: number,
    messageOrHeaders?: string | OutgoingHttpHeaders | readonly string[],
    headers?: OutgoingHttpHeaders | readonly string[],
  ): this {
    // HTTP/2 has no reason phrase: node ignores it
    const fields = typeof messageOrHeaders === 'string' ? headers : messageOrHeaders;
    return super.writeHead(statusCode, fields === undefined ? undefined : withoutConnectionFields(fields));
  }
}

function withoutConnectionFields(
  headers: OutgoingHttpHeaders | readonly string[],
): OutgoingHttpHeaders | readonly string[] {
  if (isFlatList(headers)) {
    const kept: string[] = [];
    for (let i = 0; i < headers.length; i += 2)
      if (!CONNECTION_SPECIFIC.has(headers[i].toLowerCase())) kept.push(headers[i], headers[i + 1]);
    return kept;
  }
  let kept: OutgoingHttpHeaders | undefined;
  for (const name in headers) {
    if (!CONNECTION_SPECIFIC.has(name.toLowerCase())) continue;
    kept ??= { ...headers };
    delete kept[name];
  }
  return kept ?? headers;
}

function isFlatList(headers: OutgoingHttpHeaders | readonly string[]): headers is readonly string[] {
  return Array.isArray(headers);
}

/** The node:http2 options of a gateway port: its request and response classes and the bounds of a connection. */
export function http2Options(limits: Http2Limits): ServerOptions {
  return {
    Http2ServerRequest: GatewayHttp2Request,
    Http2ServerResponse: GatewayHttp2Response,
    maxSessionMemory: limits.http2MaxSessionMemory,
    maxSessionInvalidFrames: limits.http2MaxInvalidFrames,
    maxSessionRejectedStreams: limits.http2MaxRejectedStreams,
    settings: {
      maxConcurrentStreams: limits.http2MaxConcurrentStreams,
      maxHeaderListSize: limits.http2MaxHeaderListSize,
    },
  } as ServerOptions;
}

/** The cleartext HTTP/2 server behind the plain port (GW_GATEWAY_H2C); it never listens itself. */
export function createH2cServer(
  limits: Http2Limits,
  handle: (req: GatewayHttp2Request, res: GatewayHttp2Response) => void,
): Http2Server {
  const server = createServer(http2Options(limits), handle as never);
  closeIdleSessions(server, limits.http2IdleTimeout * 1000);
  return server;
}

/**
 * Closes (GOAWAY) each HTTP/2 connection that has had no request open for `idleMs`, as node
 * closes an idle HTTP/1.1 keep-alive connection: a client can not hold connections open for free.
 * A quiet request in flight (an event stream) keeps its connection.
 */
export function closeIdleSessions(server: Http2Server | Http2SecureServer, idleMs: number): void {
  server.on('session', (session: Http2Session) => {
    let open = 0;
    let timer: NodeJS.Timeout | undefined;
    const idle = () => {
      timer = setTimeout(() => session.close(), idleMs);
      timer.unref();
    };
    session.on('stream', (stream: Http2Stream) => {
      open++;
      clearTimeout(timer);
      stream.once('close', () => {
        if (--open === 0 && !session.closed) idle();
      });
    });
    session.once('close', () => clearTimeout(timer));
    idle();
  });
}

/** What every HTTP/2 connection opens with (RFC 9113 §3.4). */
const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

/**
 * Makes the plain port serve cleartext HTTP/2 with prior knowledge beside HTTP/1.1: a connection
 * whose first bytes are the HTTP/2 preface goes to `h2c`, any other to the HTTP/1.1 server as
 * before. Call it after everything that listens to the server's connections (trackConnections):
 * those listeners then only see the HTTP/1.1 ones. A client that sends nothing is dropped after
 * the server's headers timeout, as HTTP/1.1 would drop it.
 */
export function acceptPriorKnowledge(server: HttpServer, h2c: Http2Server): void {
  const http1 = server.listeners('connection') as Array<(socket: Socket) => void>;
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    let seen: Buffer = Buffer.alloc(0);
    const timer = setTimeout(() => socket.destroy(), server.headersTimeout || 60_000);
    const read = (chunk: Buffer) => {
      seen = seen.length === 0 ? chunk : Buffer.concat([seen, chunk]);
      const compared = Math.min(seen.length, PREFACE.length);
      const looksLikeHttp2 = seen.subarray(0, compared).equals(PREFACE.subarray(0, compared));
      if (looksLikeHttp2 && compared < PREFACE.length) return;
      clearTimeout(timer);
      socket.off('data', read);
      socket.off('close', forget);
      socket.off('error', forget);
      socket.pause();
      socket.unshift(seen);
      if (looksLikeHttp2) {
        h2c.emit('connection', socket);
        return;
      }
      for (const listener of http1) listener.call(server, socket);
      // node's HTTP/1.1 parser reads the socket's handle from now on; what was put back flows to it
      socket.resume();
    };
    // the server that takes the connection listens to its errors; until then, a reset ends it here
    const forget = () => {
      clearTimeout(timer);
      socket.destroy();
    };
    socket.on('data', read);
    socket.once('close', forget);
    socket.once('error', forget);
  });
}

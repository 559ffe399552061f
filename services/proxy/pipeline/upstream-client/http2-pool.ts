import {
  connect as http2Connect,
  constants,
  type ClientHttp2Session,
  type ClientHttp2Stream,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
} from 'node:http2';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { buildConnector } from 'undici';
import { Exchange, queueCarrier, type Carrier, type UpstreamRequest, type UpstreamResponseHandler } from './exchange';
import type { OriginPool, UpstreamPoolOptions } from './origin-pool';
import { CONNECTION_SCOPED, bodyLength, requestHead } from './request-head';
import { invalidResponseHead } from './response-checks';
import { UpstreamError, type UpstreamErrorCode } from './upstream-error';

export interface Http2PoolOptions extends UpstreamPoolOptions {
  /** ms a session has to answer the PING sent after one of its streams timed out, before it is closed; @default 5000 */
  pingTimeoutMs?: number;
  /**
   * the pool that serves an https:// origin instead once its TLS handshake chose http/1.1 (the
   * upstream does not offer h2); without it, such an upstream fails the requests
   */
  fallback?: () => OriginPool;
}

/** streams a session takes before the upstream's SETTINGS say how many it allows (RFC 9113 advises at least 100) */
const FIRST_MAX_STREAMS = 100;
/** methods whose request is expected to carry a body: without one, they state a length of 0 (as the HTTP/1.1 client) */
const PAYLOAD_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** One HTTP/2 connection to the origin and the streams it carries. */
class Session {
  active = 0;
  maxStreams = FIRST_MAX_STREAMS;
  idleSince = Date.now();
  /** false once the upstream sent GOAWAY or the session failed: it takes no new stream */
  usable = true;
  /** the upstream's SETTINGS arrived: how many streams it allows is known */
  ready = false;
  /** why the session failed, for the requests that waited for it */
  failure: Error | undefined;
  /** a PING is out: whether the connection is still alive is being checked */
  pinging = false;

  constructor(readonly h2: ClientHttp2Session) {}

  get hasRoom(): boolean {
    return this.ready && this.usable && !this.h2.destroyed && !this.h2.closed && this.active < this.maxStreams;
  }
}

/**
 * The pool for one origin over HTTP/2: an `h2c://` target (cleartext, prior knowledge) or an
 * https:// one whose API asks for HTTP/2 (ALPN h2). Requests are streams multiplexed on one
 * session; another session opens only when the upstream's SETTINGS_MAX_CONCURRENT_STREAMS is
 * reached, up to `maxConnections`, then requests wait. Every connection is made by the tenant
 * connector (the outbound guard) and only then handed to node:http2. A session the upstream
 * sends GOAWAY on, or that fails, takes no new stream; one idle past `keepAliveMaxMs` is closed.
 */
export class Http2Pool implements OriginPool {
  private readonly sessions = new Set<Session>();
  private readonly queue: Exchange[] = [];
  /** sessions being opened (until the upstream's SETTINGS arrive) */
  private connecting = 0;
  private closing = false;
  private whenClosed: (() => void) | undefined;
  /** the HTTP/1.1 pool an upstream that does not offer h2 is served by, once its handshake said so */
  private fallbackPool: OriginPool | undefined;
  /** `:authority` of a request that names no Host */
  private readonly host: string;
  /** the URL node:http2 takes its `:scheme` from */
  private readonly authority: string;
  private readonly target: buildConnector.Options;
  private readonly queued: Carrier = queueCarrier(this.queue);

  constructor(
    origin: string,
    private readonly options: Http2PoolOptions,
  ) {
    const url = new URL(origin);
    const secure = url.protocol === 'https:';
    this.host = url.host;
    this.authority = `${secure ? 'https' : 'http'}://${url.host}`;
    this.target = {
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      host: url.host,
      protocol: secure ? 'https:' : 'http:',
      port: url.port || (secure ? '443' : '80'),
      servername: undefined,
      localAddress: null,
    };
  }

  dispatch(request: UpstreamRequest, handler: UpstreamResponseHandler): void {
    if (this.fallbackPool) return this.fallbackPool.dispatch(request, handler);
    const exchange = new Exchange(request, handler);
    handler.onConnect(exchange.abort);
    try {
      // the same refusals as the HTTP/1.1 clients (a method, target or header that could split a request)
      requestHead(request.method, request.path, this.host, request.headers, bodyLength(request));
    } catch (err) {
      return exchange.fail(err as Error);
    }
    if (this.closing) return exchange.fail(poolClosed());
    const session = this.sessionWithRoom();
    if (session) return this.start(session, exchange);
    exchange.carrier = this.queued;
    this.queue.push(exchange);
    this.openIfNeeded();
  }

  get busy(): boolean {
    if (this.queue.length > 0 || this.connecting > 0 || this.fallbackPool?.busy) return true;
    for (const session of this.sessions) if (session.active > 0) return true;
    return false;
  }

  closeExpired(): void {
    const cutoff = Date.now() - this.options.keepAliveMaxMs;
    for (const session of this.sessions) if (session.active === 0 && session.idleSince <= cutoff) session.h2.close();
    this.fallbackPool?.closeExpired();
  }

  /** Stops taking requests; each session closes once its streams are done (node:http2 close is graceful). */
  close(): Promise<void> {
    this.closing = true;
    for (const exchange of this.queue.splice(0)) exchange.fail(poolClosed());
    for (const session of this.sessions) session.h2.close();
    const fallback = this.fallbackPool?.close() ?? Promise.resolve();
    if (this.sessions.size === 0 && this.connecting === 0) return fallback;
    return Promise.all([fallback, new Promise<void>((resolve) => (this.whenClosed = resolve))]).then(() => undefined);
  }

  destroy(): void {
    void this.close();
    for (const session of this.sessions) session.h2.destroy();
    this.fallbackPool?.destroy();
  }

  /** A stream ended: its session has room again. */
  streamDone(session: Session): void {
    session.active -= 1;
    if (session.active === 0) {
      session.idleSince = Date.now();
      if (this.closing) session.h2.close();
    }
    this.drain();
  }

  /**
   * A stream timed out: the connection itself may be dead (a network that dropped it silently),
   * and every stream on it would wait for its own timeout. A PING it does not answer in time
   * closes it; the next requests open another.
   */
  checkAlive(session: Session): void {
    const { h2 } = session;
    if (session.pinging || h2.destroyed || h2.closed) return;
    session.pinging = true;
    const dead = setTimeout(() => {
      session.usable = false;
      h2.destroy(new UpstreamError(`${this.host} did not answer a PING`, 'UPSTREAM_CLOSED'));
    }, this.options.pingTimeoutMs ?? 5000);
    dead.unref();
    const answered = (err: Error | null) => {
      clearTimeout(dead);
      session.pinging = false;
      if (err && !h2.destroyed) h2.destroy();
    };
    if (!h2.ping(answered)) answered(null);
  }

  /** The session failed the stream before it started (closed meanwhile): it goes to another session. */
  requeue(session: Session, exchange: Exchange): void {
    session.usable = false;
    if (exchange.ended) return;
    if (this.closing) return exchange.fail(poolClosed());
    exchange.carrier = this.queued;
    this.queue.unshift(exchange);
    this.drain();
  }

  private sessionWithRoom(): Session | undefined {
    for (const session of this.sessions) if (session.hasRoom) return session;
    return undefined;
  }

  private start(session: Session, exchange: Exchange): void {
    session.active += 1;
    new StreamExchange(exchange, session, this).start(requestHeaders(exchange.request, this.host));
  }

  private drain(): void {
    while (this.queue.length > 0) {
      const session = this.sessionWithRoom();
      if (!session) break;
      this.start(session, this.queue.shift()!);
    }
    this.openIfNeeded();
  }

  /** One session opens at a time: it takes up to its stream limit of the waiting requests. */
  private openIfNeeded(): void {
    if (this.queue.length === 0 || this.connecting > 0 || this.closing) return;
    if (this.sessions.size >= this.options.maxConnections) return;
    this.connecting += 1;
    try {
      this.options.connect(this.target, (err, socket) => this.connected(err, socket));
    } catch (err) {
      this.connected(err as Error, null);
    }
  }

  private connected(err: Error | null, socket: Socket | null): void {
    if (err || !socket) {
      this.connecting -= 1;
      return this.failWaiting(err ?? new UpstreamError(`${this.host}: no connection`, 'UPSTREAM_CLOSED'));
    }
    if (this.closing) {
      this.connecting -= 1;
      socket.destroy();
      return this.afterSessionGone();
    }
    const tls = socket as TLSSocket;
    if (tls.encrypted && tls.alpnProtocol !== 'h2') {
      this.connecting -= 1;
      socket.destroy();
      return this.fallBack();
    }
    const h2 = http2Connect(this.authority, { createConnection: () => socket });
    const session = new Session(h2);
    this.sessions.add(session);
    // Streams wait for the upstream's SETTINGS (its first frame): past its stream limit, the next
    // requests open another session rather than queue unseen on this one.
    h2.on('remoteSettings', (settings) => {
      session.maxStreams = settings.maxConcurrentStreams ?? FIRST_MAX_STREAMS;
      if (!session.ready) {
        session.ready = true;
        this.connecting -= 1;
      }
      this.drain();
    });
    h2.on('goaway', () => {
      session.usable = false;
      this.openIfNeeded();
    });
    // its streams hear the failure themselves
    h2.on('error', (sessionError: Error) => {
      session.usable = false;
      session.failure ??= sessionError;
    });
    h2.on('close', () => {
      session.usable = false;
      this.sessions.delete(session);
      if (session.ready) return this.afterSessionGone();
      // it never became a session (not an HTTP/2 upstream, a reset): what waited for it fails
      this.connecting -= 1;
      this.failWaiting(
        session.failure ??
          new UpstreamError(`${this.host} closed the connection before its SETTINGS`, 'UPSTREAM_CLOSED'),
      );
    });
  }

  /** The connection everything waiting was waiting for failed: they fail as one request would. */
  private failWaiting(err: Error): void {
    const failure = upstreamError(err, undefined);
    for (const exchange of this.queue.splice(0)) exchange.fail(failure);
    this.afterSessionGone();
  }

  /** The upstream chose http/1.1: this origin is served by an HTTP/1.1 pool from now on, starting with what waits. */
  private fallBack(): void {
    this.fallbackPool = this.options.fallback?.();
    const waiting = this.queue.splice(0);
    if (!this.fallbackPool) {
      const refusal = new UpstreamError(`${this.host} does not offer HTTP/2 (ALPN h2)`, 'UPSTREAM_CLOSED');
      for (const exchange of waiting) exchange.fail(refusal);
      return this.afterSessionGone();
    }
    for (const exchange of waiting) {
      if (exchange.ended) continue;
      // handed over whole: the HTTP/1.1 pool gives the handler its own abort and its ending
      exchange.ended = true;
      exchange.carrier = undefined;
      this.fallbackPool.dispatch(exchange.request, exchange.handler);
    }
  }

  private afterSessionGone(): void {
    if (this.closing) {
      if (this.sessions.size === 0 && this.connecting === 0) this.whenClosed?.();
      return;
    }
    this.drain();
  }
}

/** A request on an HTTP/2 stream: node:http2's stream events on one side, the Exchange on the other. */
class StreamExchange implements Carrier {
  private stream: ClientHttp2Stream | undefined;
  private timer: NodeJS.Timeout | undefined;
  private awaiting: UpstreamErrorCode = 'UPSTREAM_HEADERS_TIMEOUT';
  private paused = false;
  private trailers: IncomingHttpHeaders | undefined;
  private released = false;
  /** the response's END_STREAM arrived */
  private readEnded = false;

  constructor(
    private readonly exchange: Exchange,
    private readonly session: Session,
    private readonly pool: Http2Pool,
  ) {
    exchange.carrier = this;
  }

  start(headers: OutgoingHttpHeaders): void {
    const { body } = this.exchange.request;
    const empty = body === null || (Buffer.isBuffer(body) && body.length === 0);
    let stream: ClientHttp2Stream;
    try {
      stream = this.session.h2.request(headers, { endStream: empty });
    } catch (err) {
      this.release();
      const { code } = err as { code?: string };
      if (code === 'ERR_HTTP2_INVALID_SESSION' || code === 'ERR_HTTP2_GOAWAY_SESSION')
        return this.pool.requeue(this.session, this.exchange);
      return this.exchange.fail(
        new UpstreamError(`invalid request: ${(err as Error).message}`, 'UPSTREAM_INVALID_REQUEST'),
      );
    }
    this.stream = stream;
    this.arm();
    stream.on('response', (responseHeaders) => this.onResponse(responseHeaders));
    stream.on('data', (chunk: Buffer) => this.onData(chunk));
    stream.on('trailers', (trailers) => (this.trailers = trailers));
    stream.on('end', () => this.onEnd());
    stream.on('error', (err) => this.onFailure(err));
    stream.on('close', () => this.onClose());
    if (empty) return;
    if (Buffer.isBuffer(body)) return void stream.end(body);
    // The client's body streams through (pipe: the upstream's flow control pauses the client);
    // its progress is progress of the request, so the timer waits for the answer from there.
    body.on('data', this.bodyProgress);
    body.pipe(stream);
  }

  /** Carrier: the exchange was ended here (the client left, a timeout); the upstream is told to stop (RST_STREAM CANCEL). */
  drop(): void {
    this.stop();
  }

  resume(): void {
    if (!this.paused || this.exchange.ended) return;
    this.paused = false;
    this.arm();
    this.stream?.resume();
  }

  private readonly bodyProgress = (): void => {
    if (this.awaiting === 'UPSTREAM_HEADERS_TIMEOUT') this.timer?.refresh();
  };

  private onResponse(headers: IncomingHttpHeaders): void {
    const { exchange } = this;
    if (exchange.ended) return;
    const status = Number(headers[':status']);
    const raw = rawHeaders(headers);
    const invalid = invalidResponseHead(status, raw, exchange.request.method);
    if (invalid) return this.failAndStop(new UpstreamError(invalid, 'UPSTREAM_INVALID_RESPONSE'));
    exchange.responseStarted = true;
    this.awaiting = 'UPSTREAM_BODY_TIMEOUT';
    this.arm();
    if (!exchange.handler.onHeaders(status, raw, exchange.resume)) this.pause();
  }

  private onData(chunk: Buffer): void {
    if (this.exchange.ended) return;
    this.timer?.refresh();
    if (!this.exchange.handler.onData(chunk)) this.pause();
  }

  /**
   * The response's last byte arrived. It is complete only once the stream closes without a reset:
   * node:http2 ends the readable side of a reset stream too (the upstream failed, or its
   * connection went), and tells which it was only on close.
   */
  private onEnd(): void {
    this.readEnded = true;
    this.disarm();
  }

  private onFailure(err: Error): void {
    this.exchange.fail(upstreamError(err, this.stream?.rstCode));
  }

  /** The stream is gone: its place on the session is free; a stream reset before its end fails the exchange. */
  private onClose(): void {
    this.disarm();
    this.drainBody();
    this.release();
    const { exchange } = this;
    if (exchange.ended) return;
    const code = this.stream?.rstCode ?? constants.NGHTTP2_NO_ERROR;
    if (!this.readEnded || code !== constants.NGHTTP2_NO_ERROR) return exchange.fail(upstreamError(undefined, code));
    if (!exchange.responseStarted)
      return exchange.fail(new UpstreamError('the upstream ended the stream without an answer', 'UPSTREAM_CLOSED'));
    if (this.trailers) exchange.handler.onTrailers?.(rawHeaders(this.trailers));
    exchange.complete();
  }

  private pause(): void {
    this.paused = true;
    // the client is slow, not the upstream: no timeout while the client takes what it has
    this.disarm();
    this.stream?.pause();
  }

  private arm(): void {
    const ms = this.exchange.request.timeoutMs;
    if (ms <= 0) return;
    if (this.timer) return void this.timer.refresh();
    this.timer = setTimeout(() => this.timedOut(ms), ms);
    this.timer.unref();
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private timedOut(ms: number): void {
    const what = this.awaiting === 'UPSTREAM_HEADERS_TIMEOUT' ? 'its response headers' : 'more of its body';
    this.failAndStop(new UpstreamError(`the upstream did not send ${what} within ${ms} ms`, this.awaiting));
    this.pool.checkAlive(this.session);
  }

  private failAndStop(err: Error): void {
    this.exchange.fail(err);
    this.stop();
  }

  private stop(): void {
    this.disarm();
    const { stream } = this;
    if (stream && !stream.closed && !stream.destroyed) stream.close(constants.NGHTTP2_CANCEL);
    this.drainBody();
  }

  /**
   * A streamed body not sent whole (the upstream answered early, or failed): the rest is read and
   * dropped, so the client's connection is not left waiting on a paused body.
   */
  private drainBody(): void {
    const { body } = this.exchange.request;
    if (body === null || Buffer.isBuffer(body)) return;
    body.off('data', this.bodyProgress);
    if (this.stream) body.unpipe(this.stream);
    if (!body.readableEnded && !body.destroyed) body.resume();
  }

  private release(): void {
    if (this.released) return;
    this.released = true;
    this.pool.streamDone(this.session);
  }
}

/** The request's headers for node:http2: lower-case names, pseudo-headers first, nothing scoped to an HTTP/1.1 connection. */
function requestHeaders(request: UpstreamRequest, host: string): OutgoingHttpHeaders {
  const { headers } = request;
  const ownHost = headers.host;
  const out: OutgoingHttpHeaders = {
    ':method': request.method,
    ':path': request.path,
    ':authority': typeof ownHost === 'string' ? ownHost : host,
  };
  for (const name in headers) {
    const value: unknown = headers[name];
    const lower = name.toLowerCase();
    if (value === undefined || CONNECTION_SCOPED.has(lower)) continue;
    const values = Array.isArray(value) ? value.map(String) : [String(value)];
    const known = out[lower];
    out[lower] =
      known === undefined ? (values.length === 1 ? values[0] : values) : [known, ...values].flat().map(String);
  }
  // TE is hop-by-hop; on HTTP/2 only `trailers` may be sent, and gRPC upstreams require it.
  if (request.acceptsTrailers) out.te = 'trailers';
  const length = bodyLength(request);
  if (typeof length === 'number') out['content-length'] = String(length);
  else if (length === undefined && PAYLOAD_METHODS.has(request.method)) out['content-length'] = '0';
  return out;
}

/** node:http2's header object as the flat [name, value, …] list the handlers take, without pseudo-headers. */
function rawHeaders(headers: IncomingHttpHeaders): string[] {
  const raw: string[] = [];
  for (const name in headers) {
    if (name.charCodeAt(0) === 58 /* ':' */) continue;
    const value = headers[name];
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const one of value) raw.push(name, one);
    else raw.push(name, String(value));
  }
  return raw;
}

function poolClosed(): UpstreamError {
  return new UpstreamError('the connection pool is closed', 'UPSTREAM_POOL_CLOSED');
}

/** A stream's failure under the clients' codes; a connection's own error (ECONNREFUSED…) as it is. */
function upstreamError(err: Error | undefined, rstCode: number | undefined): Error {
  if (err && !(err as { code?: string }).code?.startsWith('ERR_HTTP2')) return err;
  const reset = rstCode ? ` (RST_STREAM ${rstCode})` : '';
  const message = err ? `${err.message}${reset}` : `the upstream closed the stream before its end${reset}`;
  return new UpstreamError(message, 'UPSTREAM_CLOSED');
}

import { Pool, type Dispatcher } from 'undici';
import type { HeaderMap } from '../forward-headers';
import { Exchange, type Carrier, type UpstreamRequest, type UpstreamResponseHandler } from './exchange';
import type { OriginPool, UpstreamPoolOptions } from './origin-pool';
import { CONNECTION_SCOPED, bodyLength, requestHead } from './request-head';
import { invalidResponseHead } from './response-checks';
import { UpstreamError, type UpstreamErrorCode } from './upstream-error';

/**
 * The pool for one origin on undici's Pool, for a Node line whose own HTTP parser the gateway's
 * client can not use (native-parser.ts). It takes the same requests, refuses the same ones and
 * reports the same way (UpstreamError codes) as UpstreamPool.
 */
export class UndiciUpstreamPool implements OriginPool {
  private readonly pool: Pool;
  private readonly host: string;

  constructor(origin: string, options: UpstreamPoolOptions) {
    this.host = new URL(origin).host;
    this.pool = new Pool(origin, {
      connections: options.maxConnections,
      pipelining: 1,
      keepAliveTimeout: options.keepAliveMaxMs,
      keepAliveMaxTimeout: options.keepAliveMaxMs,
      connect: options.connect,
    });
  }

  dispatch(request: UpstreamRequest, handler: UpstreamResponseHandler): void {
    const exchange = new Exchange(request, handler);
    handler.onConnect(exchange.abort);
    let options: Dispatcher.DispatchOptions;
    try {
      // the same checks as the gateway's own client: both refuse a request that could be split
      requestHead(request.method, request.path, this.host, request.headers, bodyLength(request));
      options = dispatchOptions(request);
    } catch (err) {
      return exchange.fail(err as Error);
    }
    const carried = new UndiciExchange(exchange);
    exchange.carrier = carried;
    this.pool.dispatch(options, carried);
  }

  get busy(): boolean {
    const { running, pending, queued } = this.pool.stats;
    return running > 0 || pending > 0 || queued > 0;
  }

  /** undici closes idle connections itself, after keepAliveTimeout. */
  closeExpired(): void {}

  close(): Promise<void> {
    return this.pool.close().catch(() => this.pool.destroy());
  }

  destroy(): void {
    this.pool.destroy().catch(() => undefined);
  }
}

function dispatchOptions(request: UpstreamRequest): Dispatcher.DispatchOptions {
  const headers: HeaderMap = {};
  for (const name in request.headers) {
    const value = request.headers[name];
    if (value === undefined || (CONNECTION_SCOPED.has(name) && name !== 'host')) continue;
    headers[name] = Array.isArray(value) ? value.map(String) : String(value);
  }
  const length = bodyLength(request);
  // a streamed body's stated length (undici measures a held one)
  const streamed = request.body !== null && !Buffer.isBuffer(request.body);
  if (streamed && typeof length === 'number') headers['content-length'] = String(length);
  return {
    method: request.method,
    path: request.path,
    headers,
    body: request.body,
    headersTimeout: request.timeoutMs,
    bodyTimeout: request.timeoutMs,
  };
}

/** An exchange on its way through undici: undici's handler protocol on one side, the Exchange on the other. */
class UndiciExchange implements Carrier, Dispatcher.DispatchHandler {
  private abortUndici: ((err?: Error) => void) | undefined;
  private resumeUndici: (() => void) | undefined;
  /** the answer is a 204 or 304: it has no body, whatever length it states */
  private bodiless = false;
  /** the exchange was ended here: undici's echo of the abort is not its ending */
  private dropped = false;

  constructor(private readonly exchange: Exchange) {}

  /** Carrier: the exchange was ended here (an abort); undici stops it once it has it on a connection. */
  drop(): void {
    this.dropped = true;
    this.abortUndici?.(new UpstreamError('request aborted', 'UPSTREAM_ABORTED'));
  }

  resume(): void {
    this.resumeUndici?.();
  }

  onConnect(abort: (err?: Error) => void): void {
    this.abortUndici = abort;
    if (this.exchange.ended) abort(new UpstreamError('request aborted', 'UPSTREAM_ABORTED'));
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[] | string[] | null, resume: () => void): boolean {
    const exchange = this.exchange;
    if (exchange.ended) return false;
    this.resumeUndici = resume;
    const headers = (rawHeaders ?? []).map((field) => (typeof field === 'string' ? field : latin1(field)));
    const invalid = invalidResponseHead(statusCode, headers, exchange.request.method);
    if (invalid) {
      this.failAndAbort(new UpstreamError(invalid, 'UPSTREAM_INVALID_RESPONSE'));
      return false;
    }
    if (statusCode >= 200) {
      exchange.responseStarted = true;
      this.bodiless = statusCode === 204 || statusCode === 304;
    }
    return exchange.handler.onHeaders(statusCode, headers, exchange.resume);
  }

  onData(chunk: Buffer): boolean {
    if (this.exchange.ended) return false;
    return this.exchange.handler.onData(chunk);
  }

  /** Trailers are dropped: `Trailer` is hop-by-hop, and the gateway's answer carries none. */
  onComplete(): void {
    this.drainBody();
    this.exchange.complete();
  }

  onError(err: Error): void {
    if (this.dropped) return;
    this.drainBody();
    // A 304 may state the length of what it stands for (RFC 9110): undici takes it for a body cut short.
    const { code } = err as { code?: string };
    if (this.bodiless && code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') return this.exchange.complete();
    this.exchange.fail(upstreamError(err));
  }

  /**
   * A streamed body not sent whole (the upstream answered early, or failed): the rest is read and
   * dropped, so the client's connection is not left waiting on a paused body.
   */
  private drainBody(): void {
    const { body } = this.exchange.request;
    if (body !== null && !Buffer.isBuffer(body) && !body.readableEnded && !body.destroyed) body.resume();
  }

  private failAndAbort(err: UpstreamError): void {
    this.exchange.fail(err);
    this.abortUndici?.(err);
  }
}

const UNDICI_CODES: Record<string, UpstreamErrorCode> = {
  UND_ERR_HEADERS_TIMEOUT: 'UPSTREAM_HEADERS_TIMEOUT',
  UND_ERR_BODY_TIMEOUT: 'UPSTREAM_BODY_TIMEOUT',
  UND_ERR_SOCKET: 'UPSTREAM_CLOSED',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'UPSTREAM_INVALID_RESPONSE',
  UND_ERR_HEADERS_OVERFLOW: 'UPSTREAM_INVALID_RESPONSE',
  UND_ERR_INVALID_ARG: 'UPSTREAM_INVALID_REQUEST',
  UND_ERR_NOT_SUPPORTED: 'UPSTREAM_INVALID_REQUEST',
  UND_ERR_REQ_CONTENT_LENGTH_MISMATCH: 'UPSTREAM_ABORTED',
  UND_ERR_ABORTED: 'UPSTREAM_ABORTED',
  UND_ERR_CLOSED: 'UPSTREAM_POOL_CLOSED',
  UND_ERR_DESTROYED: 'UPSTREAM_POOL_CLOSED',
};
/** undici's SocketError messages for an answer that is not one (a 100 nobody asked for, an upgrade) */
const NOT_AN_ANSWER = new Set(['bad response', 'bad upgrade']);

/** undici's error under the gateway client's code; a connection's own error (ECONNREFUSED…) as it is. */
function upstreamError(err: Error): Error {
  if (err instanceof UpstreamError) return err;
  const code = (err as { code?: string }).code ?? '';
  if (err.name === 'HTTPParserError' || (code === 'UND_ERR_SOCKET' && NOT_AN_ANSWER.has(err.message))) {
    const message = `invalid response from the upstream (${err.message})`;
    return new UpstreamError(message, 'UPSTREAM_INVALID_RESPONSE');
  }
  const mapped = UNDICI_CODES[code];
  return mapped === undefined ? err : new UpstreamError(err.message, mapped);
}

function latin1(field: Buffer): string {
  return field.toString('latin1');
}

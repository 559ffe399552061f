import type { Socket } from 'node:net';
import type { buildConnector } from 'undici';
import { Exchange, queueCarrier, type Carrier, type UpstreamRequest, type UpstreamResponseHandler } from './exchange';
import { bodyLength, requestHead } from './request-head';
import { UpstreamConnection, type ConnectionOwner } from './upstream-connection';
import { UpstreamError } from './upstream-error';
import type { OriginPool, UpstreamPoolOptions } from './origin-pool';

/**
 * The gateway's HTTP/1.1 client for one upstream origin: keep-alive connections reused most
 * recently used first, up to `maxConnections`, then a queue. It does what the proxy needs and
 * no more (one request per connection at a time, a held or streamed body, the response handed
 * over as it is parsed), and so costs the gateway less CPU per proxied request than undici's
 * Pool (`npm run bench:proxy-cost`; docs/performance.md).
 */
export class UpstreamPool implements OriginPool, ConnectionOwner {
  private readonly idle: UpstreamConnection[] = [];
  private readonly queue: Exchange[] = [];
  private readonly connections = new Set<UpstreamConnection>();
  /** connections open or being opened */
  private opened = 0;
  private closing = false;
  private whenClosed: (() => void) | undefined;
  /** `Host` of a request that names none */
  private readonly host: string;
  private readonly target: buildConnector.Options;
  /** carries the exchanges waiting in the queue */
  private readonly queued: Carrier = queueCarrier(this.queue);

  constructor(
    origin: string,
    private readonly options: UpstreamPoolOptions,
  ) {
    const url = new URL(origin);
    this.host = url.host;
    this.target = {
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      host: url.host,
      protocol: url.protocol,
      port: url.port,
      servername: undefined,
      localAddress: null,
    };
  }

  /** Sends a request; the handler hears how it goes (onConnect at once, then the response or an error). */
  dispatch(request: UpstreamRequest, handler: UpstreamResponseHandler): void {
    const exchange = new Exchange(request, handler);
    handler.onConnect(exchange.abort);
    try {
      exchange.head = requestHead(request.method, request.path, this.host, request.headers, bodyLength(request));
    } catch (err) {
      return exchange.fail(err as Error);
    }
    if (this.closing) return exchange.fail(new UpstreamError('the connection pool is closed', 'UPSTREAM_POOL_CLOSED'));
    const now = Date.now();
    let connection: UpstreamConnection | undefined;
    while ((connection = this.idle.pop()) !== undefined) {
      if (connection.reusableUntil > now) return connection.send(exchange);
      connection.destroy();
    }
    this.openOrQueue(exchange);
  }

  /** whether a request is in flight or waiting */
  get busy(): boolean {
    return this.queue.length > 0 || this.opened > this.idle.length;
  }

  /** Closes the connections that have sat idle past their reuse. */
  closeExpired(): void {
    const now = Date.now();
    for (const connection of this.idle.filter((idle) => idle.reusableUntil <= now)) connection.destroy();
  }

  /** Stops taking requests and closes each connection once its exchange is done. */
  close(): Promise<void> {
    this.closing = true;
    for (const exchange of this.queue.splice(0))
      exchange.fail(new UpstreamError('the connection pool is closed', 'UPSTREAM_POOL_CLOSED'));
    for (const connection of this.idle.splice(0)) connection.destroy();
    if (this.opened === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.whenClosed = resolve;
    });
  }

  /** Closes every connection now, failing what is in flight. */
  destroy(): void {
    void this.close();
    for (const connection of this.connections) connection.destroy();
  }

  released(connection: UpstreamConnection): void {
    if (this.closing) return connection.destroy();
    const next = this.queue.shift();
    if (next) return connection.send(next);
    this.idle.push(connection);
  }

  closed(connection: UpstreamConnection): void {
    if (!this.connections.delete(connection)) return;
    this.opened -= 1;
    const at = this.idle.lastIndexOf(connection);
    if (at !== -1) this.idle.splice(at, 1);
    this.afterConnectionGone();
  }

  retry(exchange: Exchange): void {
    if (this.closing) return exchange.fail(new UpstreamError('the connection pool is closed', 'UPSTREAM_POOL_CLOSED'));
    this.openOrQueue(exchange);
  }

  private openOrQueue(exchange: Exchange): void {
    if (this.opened >= this.options.maxConnections) {
      exchange.carrier = this.queued;
      this.queue.push(exchange);
      return;
    }
    this.opened += 1;
    try {
      this.options.connect(this.target, (err, socket) => this.connected(exchange, err, socket));
    } catch (err) {
      this.connected(exchange, err as Error, null);
    }
  }

  private connected(exchange: Exchange, err: Error | null, socket: Socket | null): void {
    if (err || !socket) {
      this.opened -= 1;
      exchange.fail(err ?? new UpstreamError(`${this.host}: no connection`, 'UPSTREAM_CLOSED'));
      return this.afterConnectionGone();
    }
    const connection = new UpstreamConnection(socket, this, this.options.keepAliveMaxMs);
    this.connections.add(connection);
    // Aborted while connecting: the new connection serves the next request instead.
    if (exchange.ended) return this.released(connection);
    connection.send(exchange);
  }

  /** A connection closed or failed to open: room for a waiting request, or the end of closing. */
  private afterConnectionGone(): void {
    if (this.closing) {
      if (this.opened === 0) this.whenClosed?.();
      return;
    }
    const next = this.queue.shift();
    if (next) this.openOrQueue(next);
  }
}

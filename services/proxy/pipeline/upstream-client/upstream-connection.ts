import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Carrier, Exchange } from './exchange';
import { invalidResponseHead } from './response-checks';
import { ResponseParser, type ResponseEvents } from './response-parser';
import { UpstreamError, type UpstreamErrorCode } from './upstream-error';

/** What a connection tells the pool it belongs to. */
export interface ConnectionOwner {
  /** it finished an exchange and may carry another */
  released(connection: UpstreamConnection): void;
  /** its socket closed: it is gone */
  closed(connection: UpstreamConnection): void;
  /** a request to send again on a new connection: this reused one closed before answering */
  retry(exchange: Exchange): void;
}

/** How long before the upstream's announced keep-alive timeout a connection stops being reused (undici's margin). */
const KEEP_ALIVE_MARGIN_MS = 2000;
const KEEP_ALIVE_TIMEOUT = /timeout=(\d+)/i;

/**
 * One keep-alive HTTP/1.1 connection to an upstream, carrying one exchange at a time (no
 * pipelining): writes the request (its head and a held body in one write), parses the response
 * with Node's own parser and hands it to the exchange's handler as it arrives. A response the
 * upstream ends with `Connection: close`, or one that came before the whole request was sent,
 * closes the connection instead of releasing it.
 */
export class UpstreamConnection implements Carrier, ResponseEvents {
  private readonly parser = new ResponseParser(this);
  private exchange: Exchange | undefined;
  /** the current response lets the connection be reused */
  private keepAlive = true;
  /** the current request has been written whole (a streamed body may still be on its way) */
  private requestSent = true;
  private stopStreaming: (() => void) | undefined;
  /** the current request is a HEAD: its response has no body, whatever its headers say */
  private skipBody = false;
  /** the response being parsed is a 1xx, to be followed by the real one */
  private informational = false;
  /** exchanges finished on it: a connection that has served one may have been closed by the upstream since */
  private served = 0;
  private paused = false;
  private timer: NodeJS.Timeout | undefined;
  private timerMs = 0;
  /** what the timer's expiry means now; undefined: nothing is awaited */
  private awaiting: UpstreamErrorCode | undefined;
  /** how long it may be reused after an exchange: the upstream's keep-alive timeout less a margin, capped */
  private keepAliveMs: number;
  private keepAliveHeader: string | undefined;
  /** Date.now() before which it may carry another exchange */
  reusableUntil = 0;
  private destroyed = false;
  /** a finished exchange releases the connection only once the bytes read with its end have all been parsed */
  private releaseWhenParsed = false;
  /** the upstream sent a response nobody asked for (more than one answer to a request) */
  private unasked = false;

  constructor(
    private readonly socket: Socket,
    private readonly owner: ConnectionOwner,
    private readonly keepAliveMaxMs: number,
  ) {
    this.keepAliveMs = keepAliveMaxMs;
    this.parser.attach(socket, (err) => this.parsed(err));
    socket.on('end', () => this.upstreamEnded());
    socket.on('error', (err: Error) => this.failExchange(err, true));
    socket.on('close', () => this.socketClosed());
  }

  /** Writes the exchange's request; its response goes to its handler. */
  send(exchange: Exchange): void {
    const head = exchange.head;
    this.exchange = exchange;
    exchange.carrier = this;
    const { request } = exchange;
    this.skipBody = request.method === 'HEAD';
    this.keepAlive = true;
    this.arm(request.timeoutMs, 'UPSTREAM_HEADERS_TIMEOUT');
    const { socket } = this;
    const body = request.body;
    if (body === null) {
      this.requestSent = true;
      socket.write(head, 'latin1');
    } else if (Buffer.isBuffer(body)) {
      this.requestSent = true;
      socket.cork();
      socket.write(head, 'latin1');
      socket.write(body);
      socket.uncork();
    } else {
      this.requestSent = false;
      socket.write(head, 'latin1');
      this.stream(body, head.includes('\r\ntransfer-encoding: chunked\r\n'));
    }
  }

  /** Carrier: the exchange was aborted: the connection can not be trusted with another one. */
  drop(exchange: Exchange): void {
    if (exchange !== this.exchange) return;
    this.exchange = undefined;
    this.destroy();
  }

  /** Carrier: the client has taken what was written; the upstream may send more. */
  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    if (this.exchange) this.arm(this.exchange.request.timeoutMs, 'UPSTREAM_BODY_TIMEOUT');
    this.parser.resume();
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.stopStreaming?.();
    this.socket.destroy();
  }

  onResponseBegin(): void {
    // Bytes of a response after the last one ended, even a head cut short: they are not the next request's.
    if (!this.exchange) this.unasked = true;
  }

  onResponseHead(statusCode: number, rawHeaders: string[], upgrade: boolean, keepAlive: boolean): boolean {
    const exchange = this.exchange;
    if (!exchange) return true;
    const invalid = invalidResponseHead(upgrade ? 101 : statusCode, rawHeaders, exchange.request.method);
    if (invalid) {
      this.failExchange(new UpstreamError(invalid, 'UPSTREAM_INVALID_RESPONSE'), false);
      return true;
    }
    if (statusCode < 200) {
      this.informational = true;
      exchange.handler.onHeaders(statusCode, rawHeaders, exchange.resume);
      return true;
    }
    exchange.responseStarted = true;
    this.keepAlive = keepAlive;
    if (keepAlive) this.noteKeepAlive(rawHeaders);
    this.arm(exchange.request.timeoutMs, 'UPSTREAM_BODY_TIMEOUT');
    if (!exchange.handler.onHeaders(statusCode, rawHeaders, exchange.resume) && this.exchange === exchange)
      this.pause();
    return this.skipBody;
  }

  onResponseBody(chunk: Buffer): void {
    const exchange = this.exchange;
    if (!exchange) return;
    if (this.awaiting !== undefined) this.timer!.refresh();
    if (!exchange.handler.onData(chunk) && this.exchange === exchange) this.pause();
  }

  onResponseEnd(): void {
    if (this.informational) {
      this.informational = false;
      return;
    }
    const exchange = this.exchange;
    if (!exchange) return;
    this.exchange = undefined;
    this.awaiting = undefined;
    this.served += 1;
    exchange.complete();
    if (this.destroyed) return;
    if (!this.keepAlive || !this.requestSent) return this.destroy();
    if (this.paused) {
      this.paused = false;
      this.parser.resume();
    }
    this.reusableUntil = Date.now() + this.keepAliveMs;
    // released once the rest of the bytes read with it are parsed
    this.releaseWhenParsed = true;
  }

  /** The bytes of one read have been parsed. */
  private parsed(err: Error | undefined): void {
    if (err && this.exchange)
      this.failExchange(
        new UpstreamError(
          `invalid response from the upstream (${(err as { code?: string }).code ?? err.message})`,
          'UPSTREAM_INVALID_RESPONSE',
        ),
        false,
      );
    // Bytes while nothing was asked: the upstream is not speaking HTTP/1.1 as agreed.
    if (!this.releaseWhenParsed) {
      if (!this.exchange) this.destroy();
      return;
    }
    this.releaseWhenParsed = false;
    // Bytes past the answer (a second response to one request) must not be taken for the next request's.
    if (this.unasked || err) this.destroy();
    else if (!this.destroyed) this.owner.released(this);
  }

  /** The upstream closed its side: a body delimited by the close ends here; any other response was cut short. */
  private upstreamEnded(): void {
    if (this.exchange) this.parser.finish();
    this.failExchange(
      new UpstreamError('the upstream closed the connection before answering', 'UPSTREAM_CLOSED'),
      true,
    );
  }

  private socketClosed(): void {
    this.destroyed = true;
    this.awaiting = undefined;
    if (this.timer) clearTimeout(this.timer);
    this.parser.close();
    this.failExchange(
      new UpstreamError('the upstream closed the connection before answering', 'UPSTREAM_CLOSED'),
      true,
    );
    this.owner.closed(this);
  }

  /**
   * Ends the current exchange with an error and closes the connection. A reused connection the
   * upstream closed (or reset) before answering (a keep-alive race) sends an idempotent request
   * again on a new one, once; nothing of the answer had come, so nothing reached the client.
   */
  private failExchange(err: Error, closedByUpstream: boolean): void {
    const exchange = this.exchange;
    this.exchange = undefined;
    this.awaiting = undefined;
    this.destroy();
    if (!exchange) return;
    if (closedByUpstream && this.served > 0 && exchange.replayable) {
      exchange.retried = true;
      exchange.carrier = undefined;
      return this.owner.retry(exchange);
    }
    exchange.fail(err);
  }

  private pause(): void {
    this.paused = true;
    // A client slow to take the answer is not the upstream being slow: no body timeout meanwhile.
    this.awaiting = undefined;
    this.parser.pause();
  }

  /** Starts (or restarts) the timer of what is awaited now; one timer per connection, refreshed rather than replaced. */
  private arm(ms: number, awaiting: UpstreamErrorCode): void {
    if (ms <= 0) {
      this.awaiting = undefined;
      return;
    }
    this.awaiting = awaiting;
    if (this.timer !== undefined && this.timerMs === ms) {
      this.timer.refresh();
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timerMs = ms;
    this.timer = setTimeout(() => this.timedOut(), ms);
    this.timer.unref();
  }

  private timedOut(): void {
    const awaiting = this.awaiting;
    if (awaiting === undefined || !this.exchange) return;
    const what = awaiting === 'UPSTREAM_HEADERS_TIMEOUT' ? 'the response headers' : 'the response body';
    this.failExchange(
      new UpstreamError(`the upstream did not send ${what} within ${this.timerMs} ms`, awaiting),
      false,
    );
  }

  /** The upstream's `Keep-Alive: timeout=n`, when it states one: reuse stops a margin before it closes the connection. */
  private noteKeepAlive(rawHeaders: string[]): void {
    for (let i = 0; i < rawHeaders.length; i += 2) {
      const name = rawHeaders[i];
      if (name.length !== 10 || name.toLowerCase() !== 'keep-alive') continue;
      const value = rawHeaders[i + 1];
      if (value === this.keepAliveHeader) return;
      this.keepAliveHeader = value;
      const seconds = KEEP_ALIVE_TIMEOUT.exec(value);
      if (!seconds) return;
      this.keepAliveMs = Math.min(Number(seconds[1]) * 1000 - KEEP_ALIVE_MARGIN_MS, this.keepAliveMaxMs);
      if (this.keepAliveMs <= 0) this.keepAlive = false;
      return;
    }
  }

  /** Streams the client's body after the head (chunked when it stated no length), pausing it while the socket is full. */
  private stream(body: IncomingMessage, chunked: boolean): void {
    const { socket } = this;
    const onData = (chunk: Buffer) => {
      if (chunk.length === 0) return;
      let writable: boolean;
      if (chunked) {
        socket.cork();
        socket.write(`${chunk.length.toString(16)}\r\n`, 'latin1');
        socket.write(chunk);
        writable = socket.write('\r\n', 'latin1');
        socket.uncork();
      } else writable = socket.write(chunk);
      if (!writable) body.pause();
    };
    const onDrain = () => body.resume();
    const onEnd = () => {
      stop();
      if (chunked) socket.write('0\r\n\r\n', 'latin1');
      this.requestSent = true;
    };
    const onClose = () => {
      if (body.complete) return;
      stop();
      this.failExchange(new UpstreamError('the client stopped sending the request body', 'UPSTREAM_ABORTED'), false);
    };
    const stop = () => {
      this.stopStreaming = undefined;
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('close', onClose);
      socket.off('drain', onDrain);
      // Not sent whole (the upstream answered early, or failed): the rest is read and dropped, so
      // the client's connection is not left waiting on a paused body.
      if (!body.readableEnded) body.resume();
    };
    this.stopStreaming = stop;
    if (body.readableEnded) return onEnd();
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('close', onClose);
    socket.on('drain', onDrain);
    // a 'data' listener does not restart a body something paused before
    body.resume();
  }
}

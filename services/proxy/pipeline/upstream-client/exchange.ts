import type { IncomingMessage } from 'node:http';
import type { HeaderMap } from '../forward-headers';
import { UpstreamError } from './upstream-error';

/** One request to an upstream, as the upstream step hands it to a pool. */
export interface UpstreamRequest {
  method: string;
  /** the request target: path and query */
  path: string;
  headers: HeaderMap;
  /** a body held whole, the client's request streamed through, or none */
  body: Buffer | IncomingMessage | null;
  /** ms the upstream may take to send the response's headers, and between two pieces of its body; 0: no limit */
  timeoutMs: number;
  /**
   * the client sent `TE: trailers`: an HTTP/2 upstream is told so (gRPC requires it); HTTP/1.1
   * upstreams never are (TE is hop-by-hop there)
   */
  acceptsTrailers?: boolean;
}

/** Hears how a request to an upstream goes; exactly one of onComplete and onError ends it. */
export interface UpstreamResponseHandler {
  /** at once, with what stops the request (the client went away, a body grew too large); onError follows */
  onConnect(abort: (err?: Error) => void): void;
  /** a final status (or a 1xx, to be ignored); false pauses the upstream until `resume` is called */
  onHeaders(statusCode: number, rawHeaders: string[], resume: () => void): boolean;
  /** a piece of the body; false pauses the upstream until the `resume` given to onHeaders is called */
  onData(chunk: Buffer): boolean;
  /** the response's trailer fields (a flat name/value list), just before onComplete; only from an HTTP/2 upstream */
  onTrailers?(rawTrailers: string[]): void;
  onComplete(): void;
  onError(err: Error): void;
}

/** What an exchange needs from whoever is carrying it (its pool's queue, then a connection). */
export interface Carrier {
  /** stops carrying the exchange; the exchange has already been ended */
  drop(exchange: Exchange): void;
  /** the upstream may send more (after the handler paused it) */
  resume(): void;
}

/** The carrier of the exchanges waiting in a pool's queue: dropping one takes it out of the queue. */
export function queueCarrier(queue: Exchange[]): Carrier {
  return {
    drop: (exchange) => {
      const at = queue.indexOf(exchange);
      if (at !== -1) queue.splice(at, 1);
    },
    resume: () => undefined,
  };
}

/**
 * A request and its handler on their way through a pool: queued, then on a connection. It makes
 * sure the handler hears exactly one ending, whoever ends it (the upstream, a timeout, an abort).
 */
export class Exchange {
  carrier: Carrier | undefined;
  /** the request line and headers, written once the exchange has a connection */
  head = '';
  ended = false;
  /** the upstream's status line has arrived */
  responseStarted = false;
  /** sent again once already, after a reused connection closed before answering */
  retried = false;
  readonly resume = (): void => this.carrier?.resume();
  readonly abort = (err?: Error): void => {
    if (this.ended) return;
    this.carrier?.drop(this);
    this.fail(err ?? new UpstreamError('request aborted', 'UPSTREAM_ABORTED'));
  };

  constructor(
    readonly request: UpstreamRequest,
    readonly handler: UpstreamResponseHandler,
  ) {}

  /** Whether it may be sent again on another connection: nothing came back, and sending it twice does no harm. */
  get replayable(): boolean {
    const { method, body } = this.request;
    return !this.responseStarted && !this.retried && (body === null || Buffer.isBuffer(body)) && IDEMPOTENT.has(method);
  }

  complete(): void {
    if (this.ended) return;
    this.ended = true;
    this.carrier = undefined;
    this.handler.onComplete();
  }

  fail(err: Error): void {
    if (this.ended) return;
    this.ended = true;
    this.carrier = undefined;
    this.handler.onError(err);
  }
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);

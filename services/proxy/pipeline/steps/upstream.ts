import { performance } from 'node:perf_hooks';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { LoggerInstance } from 'moleculer';
import type { GwPlugin } from '../../../../plugins/sdk/define-plugin';
import { onGoingAway } from '../../../../lib/http/going-away';
import { DONE, type Step } from '../compose';
import { HOP_BY_HOP, connectionHeaders, forwardedResponseHeaders } from '../forward-headers';
import { GatewayMessages, sendGatewayError } from '../gateway-errors';
import { isGrpcRequest } from '../grpc/grpc-request';
import { grpcTimeLeft } from '../grpc/grpc-timeout';
import { applyHeaderTransform } from '../header-transform';
import type { HeaderMap } from '../forward-headers';
import type { RequestContext } from '../request-context';
import { HeldBody, runResponseFilters } from '../held-response';
import { ResponseRelay } from '../response-relay';
import { upstreamPath, type ParsedTarget } from '../target';
import type { UpstreamRequest, UpstreamResponseHandler } from '../upstream-client/exchange';
import type { UpstreamErrorCode } from '../upstream-client/upstream-error';
import type { UpstreamPools } from '../upstream-pools';
import { tunnel } from '../websocket-tunnel';
import type { Span } from '@opentelemetry/api';
import { endUpstreamSpan, startUpstreamSpan, upstreamAnswered } from '../tracing/upstream-span';

export interface UpstreamStepOptions {
  stripListenPath: boolean;
  stripVersionSegment: boolean;
  responsePlugins: GwPlugin[];
  /** looked up per request: an idle pool may have been closed since the API was compiled */
  pools: UpstreamPools;
  /** https:// targets over HTTP/2 (`proxy.transport.enable_http2`, GW_PROXY_ENABLE_HTTP2); h2c:// ones always are */
  http2: boolean;
  logger: LoggerInstance;
  /** the most upstream body bytes held for `response` plugins */
  maxResponseBody: number;
  /** a plugin failed while the response was held: log it and answer 500 */
  onFailure(ctx: RequestContext, err: unknown): void;
}

/**
 * The last step: sends the request to the version's target over its keep-alive pool and
 * streams the answer back; neither body is buffered. A client that goes away aborts the
 * upstream request; an upstream that fails before answering is 502, one that does not answer
 * within the hard timeout is 504.
 */
export function upstreamStep(options: UpstreamStepOptions): Step {
  return (ctx) => {
    const version = ctx.version!;
    const method = ctx.upstreamMethod ?? ctx.req.method ?? 'GET';
    const headers = ctx.upstreamHeaders();
    let body: Buffer | IncomingMessage | null = null;
    if (ctx.replacedBody) {
      body = ctx.replacedBody;
      headers['content-length'] = String(body.length);
    } else if (hasBody(ctx.req)) body = ctx.req;
    if (ctx.upgrade) {
      tunnel(ctx, ctx.upgrade, ctx.rewrittenUrl ?? pathFor(ctx, options), headers);
      return DONE;
    }
    const timeout = upstreamTimeout(ctx, version.timeoutFor(method, ctx.relativePath));
    if (timeout === DEADLINE_PASSED) {
      sendGatewayError(ctx.res, 504, GatewayMessages.upstreamTimeout);
      return DONE;
    }
    const request: UpstreamRequest = {
      method,
      path: '',
      headers,
      body,
      timeoutMs: timeout,
      acceptsTrailers: acceptsTrailers(ctx.req),
    };
    // A load-balanced request whose body can be sent again may go to another target after a refusal.
    // (A url_rewrite to an absolute URL names its own target, which is never swapped.)
    const replayable =
      ctx.upstreamTargets !== undefined && !ctx.targetOverride && (body === null || Buffer.isBuffer(body));
    send(ctx, options, request, ctx.targetOverride ?? ctx.target ?? version.target, replayable, undefined);
    return DONE;
  };
}

const DEADLINE_PASSED = -1;

/**
 * The API's hard timeout (0: none), bounded by a gRPC call's deadline (`grpc-timeout`, counted
 * from when the gateway received the call): the client gives up then, so the upstream need not
 * be waited for longer. DEADLINE_PASSED when nothing is left of it.
 */
function upstreamTimeout(ctx: RequestContext, apiTimeoutMs: number): number {
  if (!isGrpcRequest(ctx.req)) return apiTimeoutMs;
  const left = grpcTimeLeft(ctx.req.headers['grpc-timeout'], ctx.startedAt, performance.now());
  if (left === undefined) return apiTimeoutMs;
  if (left <= 0) return DEADLINE_PASSED;
  return apiTimeoutMs > 0 ? Math.min(apiTimeoutMs, left) : left;
}

/** Sends the request to a target (again, with `tried`, after another target refused it). */
function send(
  ctx: RequestContext,
  options: UpstreamStepOptions,
  request: UpstreamRequest,
  target: ParsedTarget,
  replayable: boolean,
  tried: Set<string> | undefined,
): void {
  ctx.target = target;
  ctx.upstreamSentAt = performance.now();
  const path = ctx.rewrittenUrl ?? pathFor(ctx, options);
  const sent = tried === undefined ? request : { ...request };
  sent.path = path;
  // the upstream's trace context names this call's span as its parent (a retry's names its own)
  const span = ctx.trace && startUpstreamSpan(ctx.trace, target, sent, tried?.size ?? 0);
  options.pools
    .get(target.origin, ctx.upstreamTls, options.http2)
    .dispatch(sent, new UpstreamHandler(ctx, options, replayable ? request : undefined, tried, span));
}

function pathFor(ctx: RequestContext, options: UpstreamStepOptions): string {
  let path = ctx.path;
  if ((options.stripVersionSegment || ctx.stripVersionSegment) && ctx.versionSegmentLength > 0) {
    path = path.slice(0, ctx.prefixLength) + path.slice(ctx.prefixLength + ctx.versionSegmentLength);
  }
  return upstreamPath(
    ctx.target ?? ctx.version!.target,
    path,
    ctx.search,
    options.stripListenPath ? ctx.prefixLength : 0,
  );
}

/** The client sent `TE: trailers` (it reads trailer fields; gRPC clients always say so). */
function acceptsTrailers(req: IncomingMessage): boolean {
  const te = req.headers.te;
  return te !== undefined && /(?:^|,)\s*trailers\s*(?:;|,|$)/i.test(String(te));
}

/** Trailer fields never passed on: they frame the message or route it (RFC 9110 §6.5.1). */
const NOT_TRAILERS = new Set([
  ...HOP_BY_HOP,
  'content-length',
  'content-type',
  'content-encoding',
  'content-range',
  'host',
  'authorization',
  'set-cookie',
  'cache-control',
  'expect',
  'max-forwards',
  'pragma',
  'range',
]);

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

const TIMEOUTS = new Set<string>(['UPSTREAM_HEADERS_TIMEOUT', 'UPSTREAM_BODY_TIMEOUT'] satisfies UpstreamErrorCode[]);
const HANDLER = Symbol('gw.upstreamHandler');
type WatchedResponse = ServerResponse & { [HANDLER]?: UpstreamHandler };

/**
 * The client went away before its answer finished: the upstream request is aborted. One
 * listener for every response (it finds its handler on the response), so watching a request
 * allocates no closure.
 */
function clientClosed(this: WatchedResponse): void {
  const handler = this[HANDLER];
  this[HANDLER] = undefined;
  if (this.writableFinished || !handler) return;
  handler.clientLeft();
}

/**
 * Hears the upstream's answer (upstream-client): the response headers arrive as the upstream
 * sent them (a flat name/value list), so the usual answer goes out without parsing them into an
 * object and copying that object again; only an API that changes response headers (or holds the
 * body) gets them as a map.
 */
class UpstreamHandler implements UpstreamResponseHandler {
  private relay: ResponseRelay | undefined;
  /** the answer is held whole for the request's response filters */
  private held: HeldBody | undefined;
  private clientGone = false;
  /** an event stream the draining gateway ended: the upstream was stopped on purpose */
  private endedByDrain = false;
  /** takes back what ends the event stream on drain (it ended on its own) */
  private forgetStream: (() => void) | undefined;
  private tooLarge = false;
  /** body bytes still expected when the upstream stated a length; -1 when it did not */
  private remaining = -1;
  private abort: ((err?: Error) => void) | undefined;
  /** resumes reading the upstream's body after onData returned false */
  private resume: (() => void) | undefined;
  private paused = false;

  constructor(
    private readonly ctx: RequestContext,
    private readonly options: UpstreamStepOptions,
    /** the request, when it may be sent to another target */
    private readonly replay: UpstreamRequest | undefined,
    private tried?: Set<string>,
    /** this call's client span, when the request is traced */
    private span?: Span,
  ) {}

  /** Ends this call's span (once): `failure` when it did not answer. */
  private endSpan(failure?: string): void {
    if (!this.span) return;
    endUpstreamSpan(this.span, failure);
    this.span = undefined;
  }

  onConnect(abort: (err?: Error) => void): void {
    this.abort = abort;
    const res = this.ctx.res as WatchedResponse;
    // A retry's handler takes over the listener of the first one.
    if (res[HANDLER] === undefined) res.on('close', clientClosed);
    res[HANDLER] = this;
  }

  clientLeft(): void {
    this.endSpan('the client closed the connection');
    this.clientGone = true;
    this.abort?.(new Error('client closed the connection'));
  }

  onHeaders(statusCode: number, rawHeaders: string[], resume: () => void): boolean {
    if (statusCode < 200) return true;
    this.resume = resume;
    const { ctx } = this;
    ctx.upstreamOutcome?.(statusCode);
    ctx.upstreamMs = performance.now() - ctx.upstreamSentAt;
    if (this.span) upstreamAnswered(this.span, statusCode);
    const version = ctx.version!;
    const endpoint = version.endpointResponseHeaders?.find(ctx.req.method ?? 'GET', ctx.relativePath);
    if (
      !version.responseHeaders &&
      !endpoint &&
      ctx.responseFilters === undefined &&
      this.options.responsePlugins.length === 0 &&
      !ctx.res.hasHeader('vary')
    ) {
      // The usual answer: the upstream's headers go out as a flat list, plus the gateway's own.
      const headers = forwardedRawResponseHeaders(rawHeaders, ctx.responseHeaders);
      ctx.res.writeHead(statusCode, headers);
      if (ctx.req.method !== 'HEAD') this.remaining = contentLength(headers);
      // Only an answer of unknown length can be an endless stream: the others skip the look.
      if (this.remaining === -1 && isEventStream(headerOf(headers, 'content-type'))) this.endOnDrain();
      return !this.paused;
    }
    const headers = forwardedResponseHeaders(rawHeaderMap(rawHeaders));
    Object.assign(headers, ctx.responseHeaders);
    // A Vary the gateway set (CORS: Origin) joins the upstream's rather than being replaced by it.
    if (headers.vary !== undefined && ctx.res.hasHeader('vary'))
      headers.vary = `${String(headers.vary)}, ${String(ctx.res.getHeader('vary'))}`;
    if (version.responseHeaders) applyHeaderTransform(version.responseHeaders, headers, ctx);
    if (endpoint) applyHeaderTransform(endpoint, headers, ctx);
    if (ctx.responseFilters !== undefined) {
      this.held = new HeldBody(statusCode, headers, this.options.maxResponseBody, () => {
        this.tooLarge = true;
        this.abort?.(
          new Error(
            `response body larger than ${this.options.maxResponseBody} bytes, the most the gateway holds to transform or cache it`,
          ),
        );
      });
      return true;
    }
    const length = headers['content-length'];
    this.startRelay(true, statusCode, headers, typeof length === 'string' ? length : undefined);
    return !this.paused;
  }

  /** `abortable`: the upstream is still sending (not for a held answer that is already whole) */
  private startRelay(
    abortable: boolean,
    statusCode: number,
    headers: HeaderMap,
    contentLength: string | undefined,
  ): void {
    if (this.options.responsePlugins.length === 0) {
      this.ctx.res.writeHead(statusCode, headers);
      if (contentLength !== undefined && this.ctx.req.method !== 'HEAD') this.remaining = Number(contentLength);
      else if (isEventStream(headers['content-type'])) this.endOnDrain();
      return;
    }
    this.relay = new ResponseRelay(this.ctx, statusCode, headers, (err) => this.options.onFailure(this.ctx, err), {
      maxBody: this.options.maxResponseBody,
      onOverflow: () => {
        this.tooLarge = true;
        if (abortable)
          this.abort?.(
            new Error(
              `response body larger than ${this.options.maxResponseBody} bytes, the most a response plugin is given`,
            ),
          );
      },
    });
    this.relay.run(this.options.responsePlugins, this.options.logger);
  }

  /** false pauses the upstream until the client has taken what was written */
  onData(chunk: Buffer): boolean {
    if (this.held) {
      this.held.add(chunk);
      return true;
    }
    if (this.remaining > 0 && (this.remaining -= chunk.length) === 0 && this.ctx.req.httpVersionMajor !== 2) {
      // The last byte of a body of known length: end with it, so headers, body and end
      // usually leave in one write. (Not to an HTTP/2 client: an HTTP/2 upstream's trailers may follow.)
      this.ctx.res.end(chunk);
      return true;
    }
    const writable = this.relay ? this.relay.data(chunk) : this.ctx.res.write(chunk);
    if (writable) return true;
    this.paused = true;
    const resume = () => {
      this.paused = false;
      this.resume?.();
    };
    if (this.relay) this.relay.whenWritable(resume);
    else this.ctx.res.once('drain', resume);
    return false;
  }

  /**
   * An event stream does not end on its own: a draining gateway stops the upstream and ends the
   * stream cleanly (an EventSource then reconnects, to another node) instead of waiting for it.
   */
  private endOnDrain(): void {
    this.forgetStream = onGoingAway(this.ctx.req.socket, () => {
      this.endedByDrain = true;
      this.abort?.(new Error('the gateway is stopping'));
      if (!this.ctx.res.writableEnded) this.ctx.res.end();
    });
  }

  /**
   * The upstream's trailers go to the client on the usual answer: always to an HTTP/2 client, to an
   * HTTP/1.1 one when it sent `TE: trailers` and the answer is chunked (Node writes them after the
   * last chunk, and drops them from an answer of stated length). A held or plugin-relayed answer is
   * rebuilt whole, without them.
   */
  onTrailers(rawTrailers: string[]): void {
    const { req, res } = this.ctx;
    if (this.held || this.relay || res.writableEnded) return;
    if (req.httpVersionMajor !== 2 && !acceptsTrailers(req)) return;
    const trailers: Array<[string, string]> = [];
    for (let i = 0; i < rawTrailers.length; i += 2) {
      const name = rawTrailers[i].toLowerCase();
      if (!NOT_TRAILERS.has(name)) trailers.push([name, rawTrailers[i + 1]]);
    }
    if (trailers.length === 0) return;
    try {
      // Node's HTTP/2 response takes its trailers as an object only: given pairs, it would
      // send the array's indexes as names ("0: grpc-status").
      res.addTrailers(req.httpVersionMajor === 2 ? trailerFields(trailers) : trailers);
    } catch (err) {
      this.options.logger.warn(
        `upstream of API ${this.ctx.api.definition.api_id}: trailers not passed on: ${(err as Error).message}`,
      );
    }
  }

  onComplete(): void {
    this.endSpan();
    this.forgetStream?.();
    if (this.held) return this.releaseHeld(this.held);
    if (this.relay) this.relay.end();
    else if (!this.ctx.res.writableEnded) this.ctx.res.end();
  }

  /**
   * A load-balanced target refused the connection, so nothing of the request was sent: it is
   * taken out of the rotation for a while and the request goes to the next target.
   */
  private tryAnotherTarget(): boolean {
    const { upstreamTargets, target } = this.ctx;
    if (!upstreamTargets || !target || !this.replay || this.ctx.res.headersSent) return false;
    upstreamTargets.refused(target);
    this.tried ??= new Set();
    this.tried.add(target.origin);
    const retry = (next: ParsedTarget | undefined): boolean => {
      if (!next) return false;
      send(this.ctx, this.options, this.replay!, next, true, this.tried);
      return true;
    };
    const next = upstreamTargets.next(this.tried);
    if (!(next instanceof Promise)) return retry(next);
    next.then(
      (found) => {
        if (!retry(found))
          this.onError(Object.assign(new Error('every target refused the connection'), { code: 'ALL_REFUSED' }));
      },
      (err: Error) => this.onError(err),
    );
    return true;
  }

  /** Runs the response filters over the whole answer, then sends what they made of it. */
  private releaseHeld(held: HeldBody): void {
    if (this.tooLarge) return;
    void runResponseFilters(this.ctx, held.response())
      .then((response) => {
        if (this.clientGone) return;
        response.headers['content-length'] = String(response.body.length);
        delete response.headers['transfer-encoding'];
        this.held = undefined;
        this.startRelay(false, response.status, response.headers, String(response.body.length));
        const body = this.ctx.req.method === 'HEAD' ? undefined : response.body;
        if (!this.relay) return void this.ctx.res.end(body);
        if (body) this.relay.data(body);
        this.relay.end();
      })
      .catch((err: unknown) => this.options.onFailure(this.ctx, err));
  }

  onError(err: Error): void {
    this.endSpan(err.message);
    this.forgetStream?.();
    if (this.clientGone || this.endedByDrain) return;
    if (this.tooLarge) {
      this.options.logger.warn(`upstream of API ${this.ctx.api.definition.api_id}: ${err.message}`);
      return sendGatewayError(this.ctx.res, 502, GatewayMessages.upstreamFailed);
    }
    const code = (err as { code?: string }).code ?? '';
    if (code === 'ECONNREFUSED' && this.tryAnotherTarget()) return;
    this.ctx.upstreamOutcome?.(0);
    this.options.logger.warn(`upstream of API ${this.ctx.api.definition.api_id} failed: ${err.message}`);
    if (TIMEOUTS.has(code)) sendGatewayError(this.ctx.res, 504, GatewayMessages.upstreamTimeout);
    else sendGatewayError(this.ctx.res, 502, GatewayMessages.upstreamFailed);
  }
}

/**
 * The upstream's raw headers as a flat [name, value, …] list for writeHead, names in lower case,
 * without hop-by-hop headers, with the gateway's own headers (X-RateLimit-*) in place of any the
 * upstream sent under the same name.
 */
function forwardedRawResponseHeaders(raw: string[], own: Record<string, string> | undefined): string[] {
  let out: string[] = [];
  let connection: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    const value = raw[i + 1];
    if (name === 'connection') connection = connection === undefined ? value : `${connection},${value}`;
    if (HOP_BY_HOP.has(name) || (own !== undefined && Object.hasOwn(own, name))) continue;
    out.push(name, value);
  }
  // Rare: the upstream's Connection header names more headers scoped to its connection.
  const scoped = connection === undefined ? undefined : connectionHeaders(connection);
  if (scoped) out = out.filter((_, i, all) => !scoped.has(all[i - (i % 2)]));
  if (own !== undefined) for (const name in own) out.push(name, own[name]);
  return out;
}

/** The raw headers as a map: names in lower case, repeated ones as a list. */
function rawHeaderMap(raw: string[]): IncomingHttpHeaders {
  const map: Record<string, string | string[]> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    const value = raw[i + 1];
    const known = Object.hasOwn(map, name) ? map[name] : undefined;
    if (known === undefined) map[name] = value;
    else if (typeof known === 'string') map[name] = [known, value];
    else known.push(value);
  }
  return map;
}

function headerOf(flat: string[], name: string): string | undefined {
  for (let i = 0; i < flat.length; i += 2) if (flat[i] === name) return flat[i + 1];
  return undefined;
}

function isEventStream(contentType: string | string[] | undefined): boolean {
  return typeof contentType === 'string' && /^\s*text\/event-stream/i.test(contentType);
}

function contentLength(flat: string[]): number {
  for (let i = 0; i < flat.length; i += 2) if (flat[i] === 'content-length') return Number(flat[i + 1]);
  return -1;
}

/** Trailer pairs as a header object, a repeated name's values in an array. */
function trailerFields(pairs: Array<[string, string]>): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = {};
  for (const [name, value] of pairs) {
    const seen = fields[name];
    fields[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return fields;
}

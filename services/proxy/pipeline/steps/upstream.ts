import { performance } from 'node:perf_hooks';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { LoggerInstance } from 'moleculer';
import type { Dispatcher } from 'undici';
import type { GwPlugin } from '../../../../plugins/sdk/define-plugin';
import { DONE, type Step } from '../compose';
import { forwardedResponseHeaders } from '../forward-headers';
import { GatewayMessages, sendGatewayError } from '../gateway-errors';
import { applyHeaderTransform } from '../header-transform';
import type { HeaderMap } from '../forward-headers';
import type { RequestContext } from '../request-context';
import { HeldBody, runResponseFilters } from '../held-response';
import { ResponseRelay } from '../response-relay';
import { upstreamPath, type ParsedTarget } from '../target';
import type { UpstreamPools } from '../upstream-pools';
import { tunnel } from '../websocket-tunnel';

export interface UpstreamStepOptions {
  stripListenPath: boolean;
  stripVersionSegment: boolean;
  responsePlugins: GwPlugin[];
  /** looked up per request: an idle pool may have been closed since the API was compiled */
  pools: UpstreamPools;
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
    const timeout = version.timeoutFor(method, ctx.relativePath);
    const dispatch = (target: ParsedTarget, resend: Send | undefined, tried: Set<string> | undefined) => {
      ctx.target = target;
      ctx.upstreamSentAt = performance.now();
      const path = ctx.rewrittenUrl ?? pathFor(ctx, options);
      options.pools.get(target.origin, ctx.upstreamTls).dispatch(
        { method: method as Dispatcher.HttpMethod, path, headers, body, headersTimeout: timeout, bodyTimeout: timeout },
        new UpstreamHandler(ctx, options, resend, tried),
      );
    };
    // A load-balanced request whose body can be sent again may go to another target after a refusal.
    // (A url_rewrite to an absolute URL names its own target, which is never swapped.)
    const replayable = ctx.upstreamTargets !== undefined && !ctx.targetOverride && (body === null || Buffer.isBuffer(body));
    const send: Send | undefined = replayable ? (target, tried) => dispatch(target, send, tried) : undefined;
    dispatch(ctx.targetOverride ?? ctx.target ?? version.target, send, undefined);
    return DONE;
  };
}

/** sends the request to a target; given to a handler only when the request can be sent again (its body is not a consumed stream) */
type Send = (target: ParsedTarget, tried: Set<string>) => void;

function pathFor(ctx: RequestContext, options: UpstreamStepOptions): string {
  let path = ctx.path;
  if ((options.stripVersionSegment || ctx.stripVersionSegment) && ctx.versionSegmentLength > 0) {
    path = path.slice(0, ctx.prefixLength) + path.slice(ctx.prefixLength + ctx.versionSegmentLength);
  }
  return upstreamPath(ctx.target ?? ctx.version!.target, path, ctx.search, options.stripListenPath ? ctx.prefixLength : 0);
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

const TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

class UpstreamHandler implements Dispatcher.DispatchHandler {
  private relay: ResponseRelay | undefined;
  /** the answer is held whole for the request's response filters */
  private held: HeldBody | undefined;
  private clientGone = false;
  private tooLarge = false;
  /** body bytes still expected when the upstream stated a length; -1 when it did not */
  private remaining = -1;

  constructor(
    private readonly ctx: RequestContext,
    private readonly options: UpstreamStepOptions,
    private readonly resend?: Send,
    private tried?: Set<string>,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController): void {
    const { res } = this.ctx;
    res.once('close', () => {
      if (res.writableFinished) return;
      this.clientGone = true;
      controller.abort(new Error('client closed the connection'));
    });
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, upstreamHeaders: IncomingHttpHeaders): void {
    if (statusCode < 200) return;
    this.ctx.upstreamOutcome?.(statusCode);
    this.ctx.upstreamMs = performance.now() - this.ctx.upstreamSentAt;
    const headers = forwardedResponseHeaders(upstreamHeaders);
    Object.assign(headers, this.ctx.responseHeaders);
    // A Vary the gateway set (CORS: Origin) joins the upstream's rather than being replaced by it.
    if (headers.vary !== undefined && this.ctx.res.hasHeader('vary')) headers.vary = `${String(headers.vary)}, ${String(this.ctx.res.getHeader('vary'))}`;
    const version = this.ctx.version!;
    if (version.responseHeaders) applyHeaderTransform(version.responseHeaders, headers, this.ctx);
    const endpoint = version.endpointResponseHeaders?.find(this.ctx.req.method ?? 'GET', this.ctx.relativePath);
    if (endpoint) applyHeaderTransform(endpoint, headers, this.ctx);
    if (this.ctx.responseFilters.length > 0) {
      this.held = new HeldBody(statusCode, headers, this.options.maxResponseBody, () => {
        this.tooLarge = true;
        controller.abort(new Error(`response body larger than ${this.options.maxResponseBody} bytes, the most the gateway holds to transform or cache it`));
      });
      return;
    }
    this.startRelay(controller, statusCode, headers, upstreamHeaders);
  }

  private startRelay(controller: Dispatcher.DispatchController | undefined, statusCode: number, headers: HeaderMap, upstreamHeaders: IncomingHttpHeaders): void {
    if (this.options.responsePlugins.length === 0) {
      this.ctx.res.writeHead(statusCode, headers);
      const length = upstreamHeaders['content-length'];
      if (typeof length === 'string' && this.ctx.req.method !== 'HEAD') this.remaining = Number(length);
      return;
    }
    this.relay = new ResponseRelay(this.ctx, statusCode, headers, (err) => this.options.onFailure(this.ctx, err), {
      maxBody: this.options.maxResponseBody,
      onOverflow: () => {
        this.tooLarge = true;
        controller?.abort(new Error(`response body larger than ${this.options.maxResponseBody} bytes, the most a response plugin is given`));
      },
    });
    this.relay.run(this.options.responsePlugins, this.options.logger);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.held) return this.held.add(chunk);
    if (this.remaining > 0 && (this.remaining -= chunk.length) === 0) {
      // The last byte of a body of known length: end with it, so headers, body and end
      // usually leave in one write.
      this.ctx.res.end(chunk);
      return;
    }
    const writable = this.relay ? this.relay.data(chunk) : this.ctx.res.write(chunk);
    if (!writable) {
      controller.pause();
      if (this.relay) this.relay.whenWritable(() => controller.resume());
      else this.ctx.res.once('drain', () => controller.resume());
    }
  }

  onResponseEnd(): void {
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
    if (!upstreamTargets || !target || !this.resend || this.ctx.res.headersSent) return false;
    upstreamTargets.refused(target);
    this.tried ??= new Set();
    this.tried.add(target.origin);
    const retry = (next: ParsedTarget | undefined): boolean => {
      if (!next) return false;
      this.resend!(next, this.tried!);
      return true;
    };
    const next = upstreamTargets.next(this.tried);
    if (!(next instanceof Promise)) return retry(next);
    next.then(
      (found) => {
        if (!retry(found)) this.onResponseError(undefined as never, Object.assign(new Error('every target refused the connection'), { code: 'ALL_REFUSED' }));
      },
      (err: Error) => this.onResponseError(undefined as never, err),
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
        this.startRelay(undefined, response.status, response.headers, { 'content-length': String(response.body.length) });
        const body = this.ctx.req.method === 'HEAD' ? undefined : response.body;
        if (!this.relay) return void this.ctx.res.end(body);
        if (body) this.relay.data(body);
        this.relay.end();
      })
      .catch((err: unknown) => this.options.onFailure(this.ctx, err));
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    if (this.clientGone) return;
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

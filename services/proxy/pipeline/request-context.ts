import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RefusalStage } from '../../../lib/observability/gateway-metrics';
import type { CompiledApi, CompiledVersion } from './compiled-api';
import type { EndpointDecision } from './endpoint-rules';
import { forwardedRequestHeaders, type HeaderMap } from './forward-headers';
import type { ParsedTarget } from './target';
import type { RequestTrace } from './tracing/request-trace';
import type { UpstreamTargets } from './upstream-health/upstream-targets';
import type { UpstreamTls } from './upstream-pools';
import type { UpgradeSocket } from './websocket-tunnel';

const NO_DECISION: EndpointDecision = { kind: 'none' };

/**
 * The most the gateway holds in memory of one request body, when it must read it (GraphQL
 * operations, batch requests, body credentials, plugins); bodies it only forwards stream.
 */
export const MAX_BUFFERED_BODY = 10 * 1024 * 1024;

/** A body the gateway had to read was larger than MAX_BUFFERED_BODY: the client gets 413. */
export class BodyTooLarge extends Error {
  constructor() {
    super(`request body larger than ${MAX_BUFFERED_BODY} bytes`);
    this.name = 'BodyTooLarge';
  }
}

/** A whole upstream answer, held so a filter can change or keep it. */
export interface HeldResponse {
  status: number;
  headers: HeaderMap;
  body: Buffer;
}

/** Sees (and may replace) the held answer before it is sent; filters run in the order they were added. */
export type ResponseFilter = (response: HeldResponse, ctx: RequestContext) => HeldResponse | Promise<HeldResponse>;

/**
 * One request on its way through an API's chain. Steps read the request from here and record
 * what they decided (version, endpoint rule, session, header and URL changes); the upstream
 * step turns it into the upstream request. Expensive views (header copy, request id, client
 * address) are computed on first use only.
 */
export class RequestContext {
  version: CompiledVersion | undefined;
  endpoint: EndpointDecision = NO_DECISION;
  /** characters after the listen path taken by a URL version segment (`/v1`) */
  versionSegmentLength = 0;
  /** a base API's versioning asked for the URL version segment to be removed upstream */
  stripVersionSegment = false;
  /** a base API handed this request to a child version: the child serves it itself (no loops between APIs) */
  handedToVersion = false;
  /** the session of the authenticated key, once authentication ran */
  session: Record<string, unknown> | undefined;
  /** the hash of the authenticated key (the limiter and analytics key on it) */
  keyHash: string | undefined;
  /** the verified JWT's header fields and claims (claims win), for `$gw_context.jwt_claims_*` */
  jwtClaims: Record<string, unknown> | undefined;
  /** the session came from an `auth_check` plugin rather than the key store */
  sessionFromPlugin = false;
  /** path and query to send upstream instead of the derived ones (set by a plugin) */
  rewrittenUrl: string | undefined;
  /** the method to use upstream instead of the client's (persisted GraphQL queries POST) */
  upstreamMethod: string | undefined;
  /** how to connect to an HTTPS upstream when not with the defaults (steps/upstream-certificates.ts) */
  upstreamTls: UpstreamTls | undefined;
  /** the upstream chosen for this request when the API has several (load balancing, service discovery) */
  target: ParsedTarget | undefined;
  /** where another target comes from when the chosen one refuses the connection */
  upstreamTargets: UpstreamTargets | undefined;
  /** told the upstream's status, or 0 when it failed to answer (circuit breakers) */
  upstreamOutcome: ((status: number) => void) | undefined;
  /** where to send the request instead of the version's target (a url_rewrite to an absolute URL) */
  targetOverride: ParsedTarget | undefined;
  /** how many internal loops (url_rewrites to `gw://…`) led to this context; 0 for a client's request */
  loopLevel = 0;
  /** the most loops this request may make, once its first loop set it (`?loop_limit=`) */
  loopLimit: number | undefined;
  /** run before the answer goes out, once the whole upstream body is held (transform_response, the cache); undefined while none */
  responseFilters: ResponseFilter[] | undefined;
  /** a request body that replaces the client's (set by a plugin) */
  replacedBody: Buffer | undefined;
  /** set once a step or plugin has answered the client */
  answered = false;
  /** set by an `auth_check` plugin that let the request through */
  authorised = false;
  /** when the gateway got the request (performance.now(), ms) */
  readonly startedAt = performance.now();
  /** when the request went upstream (performance.now(), ms) */
  upstreamSentAt = 0;
  /** ms from sending the request upstream to the upstream's response headers; undefined when none answered */
  upstreamMs: number | undefined;
  /** the part of the chain running (authentication, limits): a refusal there is counted as such */
  stage: RefusalStage;
  /**
   * authentication let the request through (or the endpoint skips it): an answer before that,
   * on an API that authenticates, went to a client nobody knows (analytics bucket those)
   */
  pastAuthentication = false;
  /** the MCP primitive the request used (`tool:get_weather`), for analytics; undefined for other requests */
  mcpPrimitive: string | undefined;
  /** the request's server span and the step running, when tracing is on (tracing/request-trace.ts) */
  trace: RequestTrace | undefined;
  /** headers the gateway adds to the response (X-RateLimit-*), set with setResponseHeader; undefined while none */
  responseHeaders: Record<string, string> | undefined;
  private headers: HeaderMap | undefined;
  private pluginState: Record<string, unknown> | undefined;
  private id: string | undefined;
  /** the client's address, once read (clientIp) */
  private ip: string | undefined;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    /** the API whose chain runs; a versioned base API hands the request to a child version's */
    public api: CompiledApi,
    /** the request path, normalised (services/proxy/lib/request-path.ts): reserved escapes such as `%2F` kept as sent */
    readonly path: string,
    /** the query string including its `?`, or '' (credential stripping may shorten it) */
    public search: string,
    /** characters of `path` covered by the listen path */
    readonly prefixLength: number,
    /** set for a WebSocket upgrade request: the chain ends in a tunnel instead of a request */
    readonly upgrade?: UpgradeSocket,
  ) {}

  /** Adds a header to the response the gateway sends (whoever answers: the upstream, a mock, the cache). */
  setResponseHeader(name: string, value: string): void {
    (this.responseHeaders ??= {})[name] = value;
  }

  /** Runs `filter` over the whole upstream answer before it is sent (filters run in the order added). */
  addResponseFilter(filter: ResponseFilter): void {
    (this.responseFilters ??= []).push(filter);
  }

  /** Free-form state shared by the plugins of one request (made on first use: most requests meet no plugin). */
  get state(): Record<string, unknown> {
    this.pluginState ??= {};
    return this.pluginState;
  }

  /** The path below the listen path (and below a URL version segment): what endpoint rules match. */
  get relativePath(): string {
    const rest = this.path.slice(this.prefixLength + this.versionSegmentLength);
    return rest === '' ? '/' : rest;
  }

  /** The headers that will go upstream; changing this object changes the upstream request. */
  upstreamHeaders(): HeaderMap {
    this.headers ??= forwardedRequestHeaders(this.req, this.api.definition.proxy.preserve_host_header === true);
    return this.headers;
  }

  /** Takes over the upstream headers of the context that looped into this one. */
  adoptHeaders(headers: HeaderMap | undefined): void {
    if (headers) this.headers = { ...headers };
  }

  /** The upstream headers when a step changed them, else undefined. */
  get changedHeaders(): HeaderMap | undefined {
    return this.headers;
  }

  get headersChanged(): boolean {
    return this.headers !== undefined;
  }

  /** Reads the client's whole body once; from then on the buffered copy goes upstream. */
  async readBody(): Promise<Buffer> {
    if (this.replacedBody) return this.replacedBody;
    this.replacedBody = await new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      // Past the limit the rest is read and dropped, so the connection stays usable for the 413.
      this.req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_BUFFERED_BODY) chunks.push(chunk);
        else chunks.length = 0;
      });
      this.req.once('end', () =>
        size > MAX_BUFFERED_BODY ? reject(new BodyTooLarge()) : resolve(Buffer.concat(chunks)),
      );
      this.req.once('error', reject);
    });
    return this.replacedBody;
  }

  get requestId(): string {
    this.id ??= randomUUID();
    return this.id;
  }

  /**
   * The client's address as the reference gateway determines it: `X-Real-IP`, else the first
   * `X-Forwarded-For` entry, else the connection's address. Read once and kept: the socket may
   * be detached from the request by the time its answer has gone.
   */
  get clientIp(): string {
    this.ip ??= clientIpOf(this.req);
    return this.ip;
  }
}

function clientIpOf(req: IncomingMessage): string {
  const realIp = req.headers['x-real-ip'];
  if (typeof realIp === 'string' && realIp !== '') return realIp.trim();
  const forwarded = req.headers['x-forwarded-for'];
  if (typeof forwarded === 'string' && forwarded !== '') return forwarded.split(',')[0].trim();
  return req.socket.remoteAddress ?? '';
}

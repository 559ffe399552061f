import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { LoggerInstance } from 'moleculer';
import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import type { GatewayMetrics } from '../../../lib/observability/gateway-metrics';
import { compileApi, type CompileDeps } from '../pipeline/compile-api';
import type { CompiledApi } from '../pipeline/compiled-api';
import { GatewayMessages, sendGatewayError, sendJson } from '../pipeline/gateway-errors';
import { NO_PLUGINS } from '../pipeline/plugins/plugin-loader';
import { PluginFailure } from '../pipeline/plugins/hook-context';
import { BodyTooLarge, RequestContext } from '../pipeline/request-context';
import type { DefinitionRegistry } from './definition-registry';
import { normaliseRequestPath } from './request-path';
import { requestWatcher, type RequestObserver } from './request-metrics';
import { RoutingTable } from './routing-table';
import { exchangeInProcess } from '../pipeline/mcp/rest-as-mcp/in-process-exchange';
import type { RestLoopRequest } from '../pipeline/mcp/rest-as-mcp/loop-request';
import type { RestAnswer } from '../pipeline/mcp/rest-as-mcp/rest-call';
import { ApiIndex } from './api-index';
import { isInternalApi } from '../../../lib/graphql/federation/federated-definitions';
import { isGraphqlApi } from '../../../lib/graphql/graphql-api';
import { withoutSessionCookies } from '../../../lib/http/session-cookie';
import { RequestTrace, startRequestTrace } from '../pipeline/tracing/request-trace';

/** The most internal loops one client request may take (the reference gateway's default loop limit). */
const MAX_LOOPS = 5;
/** the most loops a `loop_limit` may ask for: a tenant's rewrite cannot make one request run unbounded chains */
const LOOP_LIMIT_CAP = 20;

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface CompileOutcome {
  api: CompiledApi;
  /** why the definition could not be compiled; `api` then answers 503 */
  failure?: string;
  /** the other APIs it looked up while compiling (a supergraph's subgraphs) and what it found */
  lookups: Array<{ ref: string; orgId: string; found: ApiDefinition | undefined }>;
}

export type GatewayDeps = Omit<CompileDeps, 'onFailure' | 'logger' | 'loop' | 'exchange'> & {
  logger: LoggerInstance;
  /** counts each request an API answered (lib/observability) */
  metrics?: GatewayMetrics;
  /** answers GET /metrics before any API, when GW_GATEWAY_METRICS is on */
  serveMetrics?: Handler;
  /** sees every request routed to an API before its chain runs, and once it has finished (analytics) */
  requests?: RequestObserver;
};

/**
 * The gateway port's request handler. It serves from an immutable routing table that a reload
 * replaces in one assignment, so a request in flight keeps the API it started with.
 */
export class Gateway {
  private table = new RoutingTable<CompiledApi>();
  private compiled = new Map<ApiDefinition, CompileOutcome>();
  /** every compiled API by api_id, internal ones too: the targets of internal loops */
  private byId = new Map<string, CompiledApi>();
  /** api_id → why its definition could not be compiled */
  readonly loadFailures = new Map<string, string>();
  private readonly compileDeps: CompileDeps;
  private readonly watch: ((ctx: RequestContext) => void) | undefined;
  /** made once: a default argument written as an arrow would be a new closure per request */
  private readonly failRequest = (ctx: RequestContext, err: unknown): void => this.fail(ctx, err);

  constructor(
    private readonly registry: DefinitionRegistry,
    private readonly deps: GatewayDeps,
    private readonly management: Handler,
  ) {
    this.compileDeps = {
      ...deps,
      onFailure: (ctx, err) => this.fail(ctx, err),
      loop: (ctx, url) => this.loop(ctx, url),
      exchange: (ctx, request) => this.exchange(ctx, request),
      // a versioned base API hands requests to its child versions, of its own organisation only
      servedApi: (apiId, orgId) => {
        const api = this.byId.get(apiId);
        return api && (api.definition.org_id ?? '') === orgId ? api : undefined;
      },
    };
    this.watch = requestWatcher(deps.metrics, deps.requests);
  }

  get servedCount(): number {
    return this.table.size;
  }

  /** What the served APIs say the node can not run yet (for /gw/health), by api_id. */
  get notices(): Record<string, readonly string[]> {
    const notices: Record<string, readonly string[]> = {};
    for (const [definition, outcome] of this.compiled)
      if (outcome.api.notices?.length) notices[definition.api_id] = outcome.api.notices;
    return notices;
  }

  /** Recompiles what changed and swaps in a new routing table. */
  rebuild(): void {
    const table = new RoutingTable<CompiledApi>();
    const compiled = new Map<ApiDefinition, CompileOutcome>();
    this.loadFailures.clear();
    const all = this.registry.all();
    const index = new ApiIndex(all);
    const byId = new Map<string, CompiledApi>();
    for (const definition of all) {
      if (definition.active === false) continue;
      // Internal APIs are not served on their listen path; other APIs reach them by reference
      // (subgraphs) or through internal loops (the rest).
      const internal = isInternalApi(definition);
      if (internal && isGraphqlApi(definition)) continue;
      const known = this.compiled.get(definition);
      const outcome =
        known && known.lookups.every((lookup) => index.find(lookup.ref, lookup.orgId) === lookup.found)
          ? known
          : this.compile(definition, index);
      if (outcome.failure) this.loadFailures.set(definition.api_id, outcome.failure);
      byId.set(definition.api_id, outcome.api);
      if (internal) {
        compiled.set(definition, outcome);
        continue;
      }
      if (!table.add(definition.proxy.listen_path, (definition.domain ?? '').trim().toLowerCase(), outcome.api)) {
        this.deps.logger.warn(
          `API ${definition.api_id} not served: another API already listens on ${definition.proxy.listen_path}`,
        );
        if (outcome !== known) outcome.api.dispose?.();
        continue;
      }
      compiled.set(definition, outcome);
    }
    const kept = new Set([...compiled.values()].map((outcome) => outcome.api));
    const dropped = [...this.compiled.values()].filter((outcome) => !kept.has(outcome.api));
    this.table = table;
    this.compiled = compiled;
    this.byId = byId;
    // Removed or replaced: their uptime tests and breaker timers stop (requests in flight keep working).
    for (const outcome of dropped) outcome.api.dispose?.();
    const served = new Set([...compiled.keys()].map((definition) => definition.api_id));
    this.deps.metrics?.retain(served);
    // the sessions of an API no longer served are forgotten (a changed one's went when it compiled)
    this.deps.mcp.sessions?.retain(served);
    // Streams of APIs no longer served (deleted, deactivated, shadowed) stop, after draining.
    this.deps
      .streams()
      ?.retain(
        new Set(
          [...compiled.entries()].filter(([d, o]) => d.streaming !== undefined && !o.failure).map(([d]) => d.api_id),
        ),
      );
  }

  /** Stops every API's background work (the gateway is stopping). */
  stop(): void {
    for (const outcome of this.compiled.values()) outcome.api.dispose?.();
    this.compiled.clear();
    this.table = new RoutingTable<CompiledApi>();
  }

  readonly handle: Handler = (req, res) => {
    dropDashboardSession(req);
    const url = req.url ?? '/';
    const queryStart = url.indexOf('?');
    const path = cleanPath(req, url, queryStart);
    if (path === '/gw' || path.startsWith('/gw/')) return this.management(req, res);
    // The liveness check (the reference gateway's health_check_endpoint_name): no secret, before any API.
    if (path === '/hello') {
      return req.method === 'GET'
        ? sendJson(res, 200, { status: 'pass', description: 'gw gateway' })
        : sendJson(res, 405, { status: 'error', message: 'Method Not Allowed' });
    }
    if (path === '/metrics' && this.deps.serveMetrics) return this.deps.serveMetrics(req, res);
    const match = path.startsWith('/')
      ? this.table.match(this.table.hostBound ? hostName(req.headers.host) : '', path)
      : undefined;
    if (!match) return sendGatewayError(res, 404, GatewayMessages.notFound);
    this.run(
      new RequestContext(
        req,
        res,
        match.value,
        path,
        queryStart === -1 ? '' : url.slice(queryStart),
        match.prefixLength,
      ),
    );
  };

  /** A WebSocket (or other) upgrade: the API's chain runs as for any request, then tunnels. */
  readonly handleUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    dropDashboardSession(req);
    const res = new ServerResponse(req);
    res.assignSocket(socket as never);
    res.shouldKeepAlive = false;
    res.once('finish', () => socket.end());
    const url = req.url ?? '/';
    const queryStart = url.indexOf('?');
    const path = cleanPath(req, url, queryStart);
    const match =
      path.startsWith('/') && !path.startsWith('/gw/') ? this.table.match(hostName(req.headers.host), path) : undefined;
    if (!match) return sendGatewayError(res, 404, GatewayMessages.notFound);
    this.run(
      new RequestContext(
        req,
        res,
        match.value,
        path,
        queryStart === -1 ? '' : url.slice(queryStart),
        match.prefixLength,
        { socket, head },
      ),
    );
  };

  private run(ctx: RequestContext): void {
    if (this.deps.tracing) startRequestTrace(this.deps.tracing, ctx);
    this.watch?.(ctx);
    this.handleChain(ctx);
  }

  private handleChain(ctx: RequestContext, fail: (ctx: RequestContext, err: unknown) => void = this.failRequest): void {
    try {
      const pending = ctx.api.handle(ctx);
      if (pending) pending.catch((err: unknown) => fail(ctx, err));
    } catch (err) {
      fail(ctx, err);
    }
  }

  /**
   * A url_rewrite to `gw://self/<path>` or `gw://<api_id>/<path>`: the request runs through that
   * API's chain (of the same organisation only), its path taken below that API's listen path.
   * At most MAX_LOOPS loops per client request, as in the reference gateway, unless the first
   * loop's URL says otherwise with `?loop_limit=n` (capped at LOOP_LIMIT_CAP; not passed on).
   */
  private loop(from: RequestContext, url: URL, into?: { req: IncomingMessage; res: ServerResponse }): void {
    const res = into?.res ?? from.res;
    const level = from.loopLevel + 1;
    const limit = from.loopLimit ?? requestedLoopLimit(url) ?? MAX_LOOPS;
    if (level > limit)
      return sendGatewayError(res, 500, `Loop level too deep. Found more than ${limit} loops in single request`);
    if (url.searchParams.has('loop_limit')) url.searchParams.delete('loop_limit');
    const ref = decodeURIComponent(url.hostname);
    const api = ref === 'self' ? from.api : this.byId.get(ref);
    if (!api || api.definition.org_id !== from.api.definition.org_id) {
      this.deps.logger.warn(`API ${from.api.definition.api_id}: internal loop to unknown API '${ref}'`);
      return sendGatewayError(res, 404, GatewayMessages.notFound);
    }
    const listenPath = api.definition.proxy.listen_path.replace(/\/+$/, '');
    const rest = url.pathname === '' ? '/' : url.pathname;
    const path = rest === listenPath || rest.startsWith(`${listenPath}/`) ? rest : listenPath + rest;
    const ctx = new RequestContext(into?.req ?? from.req, res, api, path, url.search, listenPath.length);
    ctx.loopLevel = level;
    ctx.loopLimit = limit;
    // the loop is part of the client's request: its steps and upstream call join the same trace
    // (a request of its own, a REST-as-MCP tool call, notes its steps apart from the caller's)
    ctx.trace = into && from.trace ? new RequestTrace(from.trace.tracing, from.trace.span) : from.trace;
    if (!into) {
      ctx.replacedBody = from.replacedBody;
      ctx.adoptHeaders(from.changedHeaders);
      ctx.session = from.session;
      ctx.keyHash = from.keyHash;
    }
    this.handleChain(ctx);
  }

  /**
   * A loop made as a request of its own (a REST-as-MCP tool call): an in-process HTTP exchange
   * whose answer comes back whole, through the target API's chain, which authenticates the
   * credentials the request carries rather than taking over the caller's session.
   */
  private exchange(from: RequestContext, request: RestLoopRequest): Promise<RestAnswer> {
    const { url } = request;
    return exchangeInProcess((req, res) => this.loop(from, new URL(url.href), { req, res }), {
      method: request.method,
      url: `${url.pathname}${url.search}`,
      // the in-process socket has no address: the caller's is the one the target's IP rules judge
      headers: { ...request.headers, 'x-real-ip': from.clientIp },
      body: request.body,
    });
  }

  /**
   * Compiles a definition that is not served and gives its request handler (POST /gw/debug):
   * nothing is registered, `overrides` replace what the run must not share (its logger, events,
   * response cache), it keeps no MCP sessions, and `dispose` stops whatever it started. Throws
   * when the definition can not be served as written.
   */
  compileDetached(definition: ApiDefinition, overrides: Partial<CompileDeps>): { handle: Handler; dispose(): void } {
    const index = new ApiIndex(this.registry.all());
    const logger = overrides.logger ?? this.deps.logger;
    const fail = (ctx: RequestContext, err: unknown) => this.fail(ctx, err, logger);
    const api = compileApi(definition, {
      ...this.compileDeps,
      lookupApi: (ref, orgId) => index.find(ref, orgId),
      mcp: { ...this.compileDeps.mcp, sessions: undefined },
      onFailure: fail,
      ...overrides,
    });
    const table = new RoutingTable<CompiledApi>();
    table.add(definition.proxy.listen_path, '', api);
    const handle: Handler = (req, res) => {
      const url = req.url ?? '/';
      const queryStart = url.indexOf('?');
      const path = cleanPath(req, url, queryStart);
      const match = path.startsWith('/') ? table.match('', path) : undefined;
      if (!match) return sendGatewayError(res, 404, GatewayMessages.notFound);
      const search = queryStart === -1 ? '' : url.slice(queryStart);
      this.handleChain(new RequestContext(req, res, api, path, search, match.prefixLength), fail);
    };
    return { handle, dispose: () => api.dispose?.() };
  }

  /** A plugin or a bug broke a request: log why, answer 500, keep serving. */
  private fail(ctx: RequestContext, err: unknown, logger: LoggerInstance = this.deps.logger): void {
    const cause = err instanceof PluginFailure ? err.cause : err;
    if (cause instanceof BodyTooLarge) return sendGatewayError(ctx.res, 413, GatewayMessages.requestTooLarge);
    const api = ctx.api.definition.api_id;
    if (err instanceof PluginFailure) logger.error(`API ${api}: ${err.message}`, err.cause);
    else logger.error(`API ${api}: request failed`, err);
    sendGatewayError(ctx.res, 500, GatewayMessages.internal);
  }

  /** Compiles a definition, noting the APIs it looks up, so it is compiled again when one of them changes. */
  private compile(definition: ApiDefinition, index: ApiIndex): CompileOutcome {
    const lookups: CompileOutcome['lookups'] = [];
    const lookupApi = (ref: string, orgId: string) => {
      const found = index.find(ref, orgId);
      lookups.push({ ref, orgId, found });
      return found;
    };
    try {
      return { api: compileApi(definition, { ...this.compileDeps, lookupApi }), lookups };
    } catch (err) {
      const failure = (err as Error).message;
      this.deps.logger.error(`API ${definition.api_id} can not be served: ${failure}`);
      return { api: unavailable(definition), failure, lookups };
    }
  }
}

/** Stands on the listen path of an API whose definition failed to load, so it is not served half-configured. */
function unavailable(definition: ApiDefinition): CompiledApi {
  const message = `API ${definition.name} is not available: its definition failed to load (see the gateway log)`;
  return { definition, plugins: NO_PLUGINS, handle: (ctx) => sendGatewayError(ctx.res, 503, message) };
}

/**
 * The request path normalised (request-path.ts: unreserved escapes decoded, dot segments
 * resolved). When that changes it, `req.url` is rewritten too, so nothing later (the
 * management API, a plugin) sees the raw one.
 */
/**
 * A browser signed in to the dashboard of the same host sends its login cookie to the gateway
 * port too (cookies are not scoped by port). Removed before anything of an API sees the request
 * (forwarded headers, GraphQL, WebSockets, streams, plugins, context variables), so no
 * organisation's upstream or code can sign in as that user.
 */
function dropDashboardSession(req: IncomingMessage): void {
  const cookie = req.headers.cookie;
  if (cookie === undefined) return;
  const rest = withoutSessionCookies(cookie);
  if (rest === undefined) delete req.headers.cookie;
  else if (rest !== cookie) req.headers.cookie = rest;
}

function cleanPath(req: IncomingMessage, url: string, queryStart: number): string {
  const raw = queryStart === -1 ? url : url.slice(0, queryStart);
  if (!raw.startsWith('/')) return raw;
  const path = normaliseRequestPath(raw);
  if (path !== raw) req.url = queryStart === -1 ? path : path + url.slice(queryStart);
  return path;
}

function hostName(host: string | undefined): string {
  if (!host) return '';
  const end = host.startsWith('[') ? host.indexOf(']') + 1 : host.indexOf(':');
  return (end > 0 ? host.slice(0, end) : host).toLowerCase();
}

/** `gw://…?loop_limit=n`: a whole number from 1, at most LOOP_LIMIT_CAP; undefined when absent or not a number. */
function requestedLoopLimit(url: URL): number | undefined {
  const raw = url.searchParams.get('loop_limit');
  if (raw === null || !/^\d+$/.test(raw.trim())) return undefined;
  const wanted = Number(raw.trim());
  return wanted < 1 ? undefined : Math.min(wanted, LOOP_LIMIT_CAP);
}

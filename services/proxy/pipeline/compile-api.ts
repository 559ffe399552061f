import type { LoggerInstance } from 'moleculer';
import { isCombinedGraph } from '../../../lib/graphql/combined-graph-config';
import { isGraphqlApi } from '../../../lib/graphql/graphql-api';
import { isSupergraphApi } from '../../../lib/graphql/federation/federated-definitions';
import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import type { ApiLookup, GraphqlApi, GraphqlEngineHandOff } from '../../../contracts/graphql-engine/hand-off';
import type { CompiledApi, CompiledVersion } from './compiled-api';
import { compose, type Step } from './compose';
import type { EmitRequestEvent } from './request-events';
import { compileEndpointRules } from './endpoint-rules';
import { compileEndpointEntries } from './endpoint-entries';
import { compileEndpointFeatures } from './endpoint-features';
import { compileEndpointRouting } from './rewrites/endpoint-routing';
import { compileCacheRules, readCacheOptions, type CacheOptions } from './cache/cache-rules';
import type { ResponseCache } from './cache/response-cache';
import { responseCacheStep } from './steps/response-cache';
import { compileBodyTransform } from './body-transform/body-transform';
import { bodyTransformStep } from './steps/body-transform';
import { IsolatePool } from './virtual/isolate-pool';
import { compileVirtualEndpoints } from './virtual/virtual-endpoints';
import { virtualEndpointStep } from './steps/virtual-endpoint';

/** What one API's virtual endpoint code may use (isolated-vm limits and its HTTP helper's budget). */
const VIRTUAL_LIMITS = {
  memoryMb: 32,
  timeoutMs: 1000,
  outbound: { maxCalls: 10, maxBytes: 1024 * 1024, timeoutMs: 5000 },
};
/** tenant code cannot grow a key's stored session without bound */
const MAX_SESSION_META_CHARS = 64 * 1024;
import { internalEndpointStep, methodTransformStep, urlRewriteStep, type InternalLoop } from './steps/url-rewrite';
import { compileHeaderTransform } from './header-transform';
import { oauthEndpointsStep } from './oauth-endpoints';
import { loadPlugins } from './plugins/plugin-loader';
import type { RequestContext } from './request-context';
import { authenticationStep } from './steps/authentication';
import { batchStep } from './steps/batch';
import { compilePersistedQueries } from './persisted-queries';
import { graphqlStep } from './steps/graphql';
import { streamsStep } from './steps/streams';
import type { StreamApi, StreamsHandOff } from '../../../contracts/streams/hand-off';
import { ipRulesStep } from './steps/ip-rules';
import { mutualTlsStep, type CertificateSource } from './steps/mutual-tls';
import { limitsStep } from './steps/limits';
import { orgLimitsStep, type OrgSessionLookup } from './steps/org-limits';
import { pluginStep } from './steps/plugins';
import { mockResponseStep } from './steps/mock-response';
import { replyStep } from './steps/reply';
import { validateRequestStep } from './steps/validate-request';
import { requestHeadersStep } from './steps/request-headers';
import { sessionChecksStep } from './steps/session-checks';
import { sizeLimitStep } from './steps/size-limit';
import { upstreamStep } from './steps/upstream';
import { circuitBreakerStep, compileBreakers } from './steps/circuit-breaker';
import { corsStep } from './steps/cors';
import { ApiHealth, type PublishApiEvent } from './upstream-health/api-health';
import { upstreamCertificatesStep } from './steps/upstream-certificates';
import { versionStep } from './steps/version';
import { versionRoutingStep, type ServedApiLookup } from './steps/version-routing';
import { readVersionRouting } from './version-routing';
import { parseTarget } from './target';
import type { UpstreamPools } from './upstream-pools';
import { parseExpiry, readVersionSettings } from './versions';
import type { Call } from '../../../lib/bus/call';
import type { HotCall } from '../../../lib/bus/hot-call';
import type { IdentityProviders } from '../../../lib/jwt/identity-providers';
import type { GatewayMetrics, RefusalStage } from '../../../lib/observability/gateway-metrics';
import { jsonRpcErrorsStep } from './mcp/json-rpc-errors';
import { mcpStep } from './mcp/mcp-step';
import type { McpSessionTable } from './mcp/session-table';
import { answerFromRestApi, type InternalExchange } from './mcp/rest-dispatch';
import { tracedStep } from './tracing/traced-step';
import type { Tracing } from '../../../lib/observability/tracing/tracing';

export interface CompileDeps {
  pools: UpstreamPools;
  /** every https:// upstream over HTTP/2 (GW_PROXY_ENABLE_HTTP2); an API asks for it with proxy.transport.enable_http2 */
  enableHttp2?: boolean;
  logger: LoggerInstance;
  /** where relative plugin paths are resolved (and the only folder plugin files may come from) */
  pluginsDir: string;
  /** package names allowed as plugin paths (GW_PLUGIN_PACKAGES) */
  pluginPackages: readonly string[];
  /** the most upstream body bytes held for `response` plugins */
  maxResponseBody: number;
  /** how large a virtual endpoint's answer may be (GW_VIRTUAL_MAX_RESPONSE_*) */
  virtualAnswers: { maxHeaders: number; maxHeaderBytes: number; maxBodyBytes: number };
  /** upstream hard timeout when no `hard_timeouts` entry matches, in ms */
  defaultTimeoutMs: number;
  /** this gateway's own origin, for batch requests */
  selfOrigin(): string;
  /** a plugin failed after the upstream answered */
  onFailure(ctx: RequestContext, err: unknown): void;
  /** calls an action of another service */
  call: Call;
  /** `auth.check` and `limiter.check`, which run on every request: in process when this node runs auth or the limiter */
  check: HotCall;
  /** the organisation sessions this node holds, when GW_ENFORCE_ORG_QUOTAS is on (else no organisation monitor) */
  orgSessions?: OrgSessionLookup;
  /** what X-RateLimit-* headers describe */
  responseHeaders: 'quotas' | 'rate_limits' | 'none';
  /** graphql-engine's hand-off, when this node runs it (GraphQL APIs are not served otherwise) */
  graphqlEngine(): GraphqlEngineHandOff | undefined;
  /** the other APIs of the node, for an API that names some (a supergraph's subgraphs) */
  lookupApi?: ApiLookup;
  /** the APIs this node serves now, for a versioned base API that hands requests to its child versions */
  servedApi?: ServedApiLookup;
  /** the streams service's hand-off, when this node runs it (stream APIs are not served otherwise) */
  streams(): StreamsHandOff | undefined;
  /** publishes a gateway event (`gw.event.<name>`) about a request */
  emitEvent: EmitRequestEvent;
  /** the certificate store as this node sees it (client allow lists, upstream client certificates) */
  certificates: CertificateSource;
  /** the key sets and OpenID Connect providers this node fetched, kept across reloads */
  identityProviders: IdentityProviders;
  /** publishes a gateway event about an API, not about one request (uptime tests, circuit breakers) */
  publishEvent: PublishApiEvent;
  /** sends a request on to an API of this node (a url_rewrite to `gw://self/…` or `gw://<api_id>/…`) */
  loop: InternalLoop;
  /** runs a request through an API of this node in process, as a client of its own (REST-as-MCP tool calls) */
  exchange: InternalExchange;
  /** where cached responses are kept (memory, or Redis shared by the gateway nodes) */
  responseCache: ResponseCache;
  /** MCP APIs' bounds (GW_MCP_MAX_MESSAGE_BYTES, GW_MCP_TOOL_CALL_TIMEOUT in ms) and their sessions, kept across reloads */
  mcp: { maxMessageBytes: number; toolCallTimeoutMs: number; sessions?: McpSessionTable };
  /** the gateway's request metrics, when kept (MCP calls are counted by primitive there) */
  metrics?: GatewayMetrics;
  /** the node's tracer, when tracing is on (GW_OTEL_ENDPOINT): steps note their name, and with `detailed_tracing` get a span */
  tracing?: Tracing;
  /** wraps every step of the chain under its name (POST /gw/debug logs each step of its run) */
  watchStep?: (name: string, step: Step) => Step;
  /** the templates folder (GW_TEMPLATE_PATH): the only place body transform template files come from */
  templatesDir: string;
}

/**
 * Turns a definition into its chain, once. The order is the reference gateway's
 * (docs/gateway.md#the-chain); a step the API does not use is not in its chain. Throws when the
 * definition can not be served as written (bad target, pattern, IP range or plugin).
 */
export function compileApi(definition: ApiDefinition, deps: CompileDeps): CompiledApi {
  const plugins = loadPlugins(definition.custom_middleware, { dir: deps.pluginsDir, packages: deps.pluginPackages });
  const settings = readVersionSettings(definition);
  const health = new ApiHealth(definition, deps.publishEvent);
  const cacheOptions = readCacheOptions(definition);
  let pool: IsolatePool | undefined;
  const answer = { ...deps.virtualAnswers, maxSessionMetaChars: MAX_SESSION_META_CHARS };
  const virtualLimits = { ...VIRTUAL_LIMITS, answer };
  const logVirtual = (text: string) => deps.logger.info(`API ${definition.api_id} virtual endpoint: ${text}`);
  const isolates = () => (pool ??= new IsolatePool(virtualLimits, logVirtual));
  const versions = new Map<string, CompiledVersion>();
  for (const [name, version] of settings.versions)
    versions.set(name, compileVersion(name, version, definition, deps, { health, cacheOptions, isolates }));
  const all = [...versions.values()];
  const graphql = graphqlApiOf(definition, deps);

  // With tracing on, each step notes its name on the request's trace (and, with detailed_tracing, gets a span).
  const detailedTracing = definition.detailed_tracing === true;
  const named = (name: string, step: Step | undefined, detailed = detailedTracing): Step | undefined => {
    if (!step) return undefined;
    const traced = deps.tracing ? tracedStep(name, step, detailed) : step;
    return deps.watchStep ? deps.watchStep(name, traced) : traced;
  };
  const steps: Array<Step | undefined> = [
    named('mcp_errors', definition.mcp ? jsonRpcErrorsStep : undefined),
    named('cors', corsStep(definition)),
    named('oauth_endpoints', oauthEndpointsStep(definition, deps.call, deps.logger)),
    named('batch', batchStep(definition, deps.selfOrigin)),
    named('version_routing', versionRoutingStep(readVersionRouting(definition), definition.org_id, deps.servedApi)),
    named('version', versionStep(settings, versions, deps.emitEvent)),
    named('internal_endpoint', all.some((v) => v.internalEndpoints) ? internalEndpointStep : undefined),
    named('plugins_pre', pluginStep('pre', plugins.pre, deps.logger)),
    named('ip_rules', ipRulesStep(definition)),
    named('size_limit', all.some((v) => v.sizeLimit > 0 || v.sizeLimits) ? sizeLimitStep : undefined),
    named('mutual_tls', mutualTlsStep(definition, deps.certificates)),
    // before authentication: an inactive or exhausted organisation is refused whatever the key
    ...staged(
      'limits',
      named('org_limits', deps.orgSessions && orgLimitsStep(definition, { ...deps, orgSessions: deps.orgSessions })),
    ),
    ...staged('auth', named('authentication', authenticationStep(definition, plugins.auth_check, deps))),
    named('plugins_post_key_auth', pluginStep('post_key_auth', plugins.post_key_auth, deps.logger)),
    named('session_checks', sessionChecksStep(definition, deps.emitEvent)),
    ...staged('limits', named('limits', usesLimits(definition, all) ? limitsStep(definition, deps) : undefined)),
    named(
      'mcp',
      mcpStep(definition, {
        ...deps.mcp,
        check: deps.check,
        emitEvent: deps.emitEvent,
        countCall:
          deps.metrics && ((apiId, primitive, outcome) => deps.metrics!.countMcpCall(apiId, primitive, outcome)),
        restAsMcp: answerFromRestApi,
        exchange: deps.exchange,
      }),
    ),
    named(
      'graphql',
      graphqlStep(
        definition,
        graphql,
        all.some((v) => v.persistedQueryFor !== undefined),
        health.targetStep,
      ),
    ),
    named('streams', streamsStep(streamApiOf(definition, deps))),
    named('validate_request', all.some((v) => v.validators) ? validateRequestStep : undefined),
    named('endpoint_rules', all.some((v) => !v.rules.empty) ? replyStep : undefined),
    named('mock_response', all.some((v) => v.mockResponses) ? mockResponseStep : undefined),
    named(
      'request_headers',
      all.some((v) => v.requestHeaders || v.endpointRequestHeaders) ? requestHeadersStep : undefined,
    ),
    named(
      'body_transform',
      all.some((v) => v.requestTransforms || v.responseTransforms) ? bodyTransformStep(deps.logger) : undefined,
    ),
    named('url_rewrite', all.some((v) => v.urlRewrites) ? urlRewriteStep(deps.loop) : undefined),
    named('method_transform', all.some((v) => v.methodTransforms) ? methodTransformStep : undefined),
    named('response_cache', cacheOptions ? responseCacheStep(cacheOptions, deps.responseCache) : undefined),
    named(
      'virtual_endpoint',
      all.some((v) => v.virtualEndpoints) ? virtualEndpointStep(deps.logger, deps.call) : undefined,
    ),
    named('plugins_post', pluginStep('post', plugins.post, deps.logger)),
    named('circuit_breaker', all.some((v) => v.breakers) ? circuitBreakerStep : undefined),
    named('upstream_target', health.targetStep),
    named('upstream_certificates', upstreamCertificatesStep(definition, deps.certificates)),
    named(
      'upstream',
      upstreamStep({
        stripListenPath: definition.proxy.strip_listen_path === true,
        stripVersionSegment: settings.location.stripUrlSegment,
        responsePlugins: plugins.response,
        pools: deps.pools,
        http2:
          deps.enableHttp2 === true ||
          (definition.proxy.transport as { enable_http2?: unknown } | undefined)?.enable_http2 === true,
        maxResponseBody: deps.maxResponseBody,
        logger: deps.logger,
        onFailure: deps.onFailure,
      }),
      false,
    ),
  ];
  const handle = compose(steps.filter((step): step is Step => step !== undefined));
  health.start();
  const dispose = () => {
    health.dispose();
    pool?.dispose();
  };
  return { definition, plugins, notices: graphql?.notices, handle, dispose };
}

/**
 * A step between two that mark the stage it runs in (ctx.stage), so the request metrics can
 * tell its refusals (authentication failures, limiter refusals) from other 4xx answers.
 */
function staged(stage: NonNullable<RefusalStage>, step: Step | undefined): Array<Step | undefined> {
  if (!step) return [];
  return [
    (ctx) => {
      ctx.stage = stage;
    },
    step,
    stage === 'auth' ? leaveAuthentication : leaveStage,
  ];
}

const leaveStage: Step = (ctx) => {
  ctx.stage = undefined;
};

const leaveAuthentication: Step = (ctx) => {
  ctx.stage = undefined;
  ctx.pastAuthentication = true;
};

function compileVersion(
  name: string,
  version: Record<string, unknown>,
  definition: ApiDefinition,
  deps: CompileDeps,
  shared: { health: ApiHealth; cacheOptions: CacheOptions | undefined; isolates: () => IsolatePool },
): CompiledVersion {
  const { cacheOptions, health } = shared;
  const contextVars = definition.enable_context_vars === true;
  const override =
    typeof version.override_target === 'string' && version.override_target !== '' ? version.override_target : undefined;
  const target = parseTarget(override ?? targetlessFallback(definition));
  const extended = (version.use_extended_paths === true ? version.extended_paths : undefined) as
    Record<string, unknown> | undefined;
  return {
    name,
    expiresAt: parseExpiry(version.expires),
    rules: compileEndpointRules(version),
    requestHeaders: compileHeaderTransform(version.global_headers, version.global_headers_remove, contextVars),
    responseHeaders: compileHeaderTransform(
      version.global_response_headers,
      version.global_response_headers_remove,
      contextVars,
    ),
    sizeLimit: Number(version.global_size_limit) > 0 ? Number(version.global_size_limit) : 0,
    target,
    timeoutFor: compileTimeouts(extended?.hard_timeouts, version.ignore_endpoint_case === true, deps.defaultTimeoutMs),
    ...compileEndpointRateLimits(extended?.rate_limit, version.ignore_endpoint_case === true),
    persistedQueryFor: compilePersistedQueries(extended?.persist_graphql, contextVars),
    ...compileEndpointFeatures(extended, version.ignore_endpoint_case === true, contextVars),
    breakers: compileBreakers(
      extended?.circuit_breakers,
      version.ignore_endpoint_case === true,
      health.breakerListener,
      health.breakers,
    ),
    ...compileEndpointRouting(extended, version.ignore_endpoint_case === true),
    cacheRules: cacheOptions && compileCacheRules(cacheOptions, extended, version.ignore_endpoint_case === true),
    requestTransforms: compileEndpointEntries(extended?.transform, version.ignore_endpoint_case === true, (entry) =>
      compileBodyTransform(entry, deps.templatesDir, contextVars),
    ),
    virtualEndpoints: compileVirtualEndpoints(
      extended?.virtual,
      version.ignore_endpoint_case === true,
      shared.isolates,
      deps.pluginsDir,
    ),
    responseTransforms: compileEndpointEntries(
      extended?.transform_response,
      version.ignore_endpoint_case === true,
      (entry) => compileBodyTransform(entry, deps.templatesDir, contextVars),
    ),
  };
}

/**
 * The API's target. Supergraphs and combined graphs may have no target (the reference gateway stores
 * `target_url: ""`): they answer from their subgraphs or data sources, never from a target, so a
 * reserved never-resolving name stands in. Other APIs need a target.
 */
function targetlessFallback(definition: ApiDefinition): string {
  // a REST-as-MCP API's `gw://<api_id>/mcp` is answered by its MCP step, never requested
  if (definition.mcp?.rest_source) return 'http://rest-as-mcp.invalid/';
  if (definition.proxy.target_url) return definition.proxy.target_url;
  return isSupergraphApi(definition) || isCombinedGraph(definition.graphql)
    ? 'http://graph-without-target.invalid/'
    : definition.proxy.target_url;
}

/** The streams of a stream API (`streaming`), started by the streams service; undefined for other APIs. */
function streamApiOf(definition: ApiDefinition, deps: CompileDeps): StreamApi | undefined {
  if (definition.streaming === undefined) return undefined;
  const streams = deps.streams();
  if (!streams) throw new Error('this gateway node does not run the streams service, which stream APIs need');
  return streams.compile(definition);
}

/** The GraphQL side of a GraphQL API, compiled by graphql-engine; undefined for other APIs. */
function graphqlApiOf(definition: ApiDefinition, deps: CompileDeps): GraphqlApi | undefined {
  if (!isGraphqlApi(definition)) return undefined;
  const engine = deps.graphqlEngine();
  if (!engine)
    throw new Error('it is a GraphQL API and this node does not run the graphql-engine service (GW_SERVICES)');
  return engine.compile(definition, deps.lookupApi);
}

/** Keys always go through the limiter (their quota and limits); keyless APIs only when they set a limit. */
function usesLimits(definition: ApiDefinition, versions: CompiledVersion[]): boolean {
  const global = definition.global_rate_limit as { rate?: number; per?: number } | undefined;
  return (
    definition.use_keyless !== true ||
    Boolean(global?.rate && global?.per) ||
    versions.some((v) => v.hasEndpointRateLimits)
  );
}

/** `extended_paths.rate_limit`: `{path, method, enabled, rate, per}`, tried in order. */
function compileEndpointRateLimits(
  entries: unknown,
  ignoreCase: boolean,
): Pick<CompiledVersion, 'rateLimitFor' | 'hasEndpointRateLimits'> {
  const list = Array.isArray(entries) ? entries : [];
  const lookup = compileEndpointEntries(list, ignoreCase, (entry) =>
    Number(entry.rate) > 0 && Number(entry.per) > 0
      ? { index: list.indexOf(entry), rate: Number(entry.rate), per: Number(entry.per) }
      : undefined,
  );
  if (!lookup) return { hasEndpointRateLimits: false, rateLimitFor: () => undefined };
  return { hasEndpointRateLimits: true, rateLimitFor: (method, relativePath) => lookup.find(method, relativePath) };
}

/** `extended_paths.hard_timeouts`: `{path, method, timeout}` with the timeout in seconds. */
function compileTimeouts(entries: unknown, ignoreCase: boolean, fallbackMs: number): CompiledVersion['timeoutFor'] {
  const lookup = compileEndpointEntries(entries, ignoreCase, (entry) =>
    Number(entry.timeout) > 0 ? Number(entry.timeout) * 1000 : undefined,
  );
  if (!lookup) return () => fallbackMs;
  return (method, relativePath) => lookup.find(method, relativePath) ?? fallbackMs;
}

import type { LoggerInstance } from 'moleculer';
import { isCombinedGraph } from '../../../lib/graphql/combined-graph-config';
import { isGraphqlApi } from '../../../lib/graphql/graphql-api';
import { isSupergraphApi } from '../../../lib/graphql/federation/federated-definitions';
import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import type { ApiLookup, GraphqlApi, GraphqlEngineHandOff } from '../../../contracts/graphql-engine/hand-off';
import type { GatewayEventName } from '../../../contracts/events';
import type { CompiledApi, CompiledVersion } from './compiled-api';
import { compose, type Step } from './compose';
import { compileEndpointRules } from './endpoint-rules';
import { compileEndpointEntries } from './endpoint-entries';
import { compileEndpointFeatures } from './endpoint-features';
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
import { pluginStep } from './steps/plugins';
import { mockResponseStep } from './steps/mock-response';
import { replyStep } from './steps/reply';
import { validateRequestStep } from './steps/validate-request';
import { requestHeadersStep } from './steps/request-headers';
import { sessionChecksStep } from './steps/session-checks';
import { sizeLimitStep } from './steps/size-limit';
import { upstreamStep } from './steps/upstream';
import { upstreamCertificatesStep } from './steps/upstream-certificates';
import { versionStep } from './steps/version';
import { versionRoutingStep, type ServedApiLookup } from './steps/version-routing';
import { readVersionRouting } from './version-routing';
import { parseTarget } from './target';
import type { UpstreamPools } from './upstream-pools';
import { parseExpiry, readVersionSettings } from './versions';
import type { Call } from '../../../lib/bus/call';
import type { RefusalStage } from '../../../lib/observability/gateway-metrics';

export interface CompileDeps {
  pools: UpstreamPools;
  logger: LoggerInstance;
  /** where relative plugin paths are resolved (and the only folder plugin files may come from) */
  pluginsDir: string;
  /** package names allowed as plugin paths (GW_PLUGIN_PACKAGES) */
  pluginPackages: readonly string[];
  /** the most upstream body bytes held for `response` plugins */
  maxResponseBody: number;
  /** upstream hard timeout when no `hard_timeouts` entry matches, in ms */
  defaultTimeoutMs: number;
  /** this gateway's own origin, for batch requests */
  selfOrigin(): string;
  /** a plugin failed after the upstream answered */
  onFailure(ctx: RequestContext, err: unknown): void;
  /** calls an action of another service (`auth.check`, `limiter.check`) */
  call: Call;
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
  emitEvent(event: GatewayEventName, ctx: RequestContext, message: string): void;
  /** the certificate store as this node sees it (client allow lists, upstream client certificates) */
  certificates: CertificateSource;
}

/**
 * Turns a definition into its chain, once. The order is the reference gateway's (ARCHITECTURE.md
 * "The request path"); a step the API does not use is not in its chain. Throws when the
 * definition can not be served as written (bad target, pattern, IP range or plugin).
 */
export function compileApi(definition: ApiDefinition, deps: CompileDeps): CompiledApi {
  const plugins = loadPlugins(definition.custom_middleware, { dir: deps.pluginsDir, packages: deps.pluginPackages });
  const settings = readVersionSettings(definition);
  const versions = new Map<string, CompiledVersion>();
  for (const [name, version] of settings.versions) versions.set(name, compileVersion(name, version, definition, deps));
  const all = [...versions.values()];
  const graphql = graphqlApiOf(definition, deps);

  const steps: Array<Step | undefined> = [
    oauthEndpointsStep(definition, deps.call, deps.logger),
    batchStep(definition, deps.selfOrigin),
    versionRoutingStep(readVersionRouting(definition), definition.org_id, deps.servedApi),
    versionStep(settings, versions, deps.emitEvent),
    pluginStep('pre', plugins.pre, deps.logger),
    ipRulesStep(definition),
    all.some((v) => v.sizeLimit > 0 || v.sizeLimits) ? sizeLimitStep : undefined,
    mutualTlsStep(definition, deps.certificates),
    ...staged('auth', authenticationStep(definition, plugins.auth_check, deps)),
    pluginStep('post_key_auth', plugins.post_key_auth, deps.logger),
    sessionChecksStep(definition, deps.emitEvent),
    ...staged('limits', usesLimits(definition, all) ? limitsStep(definition, deps) : undefined),
    graphqlStep(definition, graphql, all.some((v) => v.persistedQueryFor !== undefined)),
    streamsStep(streamApiOf(definition, deps)),
    all.some((v) => v.validators) ? validateRequestStep : undefined,
    all.some((v) => !v.rules.empty) ? replyStep : undefined,
    all.some((v) => v.mockResponses) ? mockResponseStep : undefined,
    all.some((v) => v.requestHeaders || v.endpointRequestHeaders) ? requestHeadersStep : undefined,
    pluginStep('post', plugins.post, deps.logger),
    upstreamCertificatesStep(definition, deps.certificates),
    upstreamStep({
      stripListenPath: definition.proxy.strip_listen_path === true,
      stripVersionSegment: settings.location.stripUrlSegment,
      responsePlugins: plugins.response,
      pools: deps.pools,
      maxResponseBody: deps.maxResponseBody,
      logger: deps.logger,
      onFailure: deps.onFailure,
    }),
  ];
  return { definition, plugins, notices: graphql?.notices, handle: compose(steps.filter((step): step is Step => step !== undefined)) };
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
    leaveStage,
  ];
}

const leaveStage: Step = (ctx) => {
  ctx.stage = undefined;
};

function compileVersion(name: string, version: Record<string, unknown>, definition: ApiDefinition, deps: CompileDeps): CompiledVersion {
  const contextVars = definition.enable_context_vars === true;
  const override = typeof version.override_target === 'string' && version.override_target !== '' ? version.override_target : undefined;
  const target = parseTarget(override ?? (definition.proxy.target_url || targetlessFallback(definition)));
  const extended = (version.use_extended_paths === true ? version.extended_paths : undefined) as Record<string, unknown> | undefined;
  return {
    name,
    expiresAt: parseExpiry(version.expires),
    rules: compileEndpointRules(version),
    requestHeaders: compileHeaderTransform(version.global_headers, version.global_headers_remove, contextVars),
    responseHeaders: compileHeaderTransform(version.global_response_headers, version.global_response_headers_remove, contextVars),
    sizeLimit: Number(version.global_size_limit) > 0 ? Number(version.global_size_limit) : 0,
    target,
    timeoutFor: compileTimeouts(extended?.hard_timeouts, version.ignore_endpoint_case === true, deps.defaultTimeoutMs),
    ...compileEndpointRateLimits(extended?.rate_limit, version.ignore_endpoint_case === true),
    persistedQueryFor: compilePersistedQueries(extended?.persist_graphql, contextVars),
    ...compileEndpointFeatures(extended, version.ignore_endpoint_case === true, contextVars),
  };
}

/**
 * Supergraphs and combined graphs may have no target (the reference gateway stores
 * `target_url: ""`): they answer from their subgraphs or data sources, never from a target, so a
 * reserved never-resolving name stands in. Other APIs need a target.
 */
function targetlessFallback(definition: ApiDefinition): string {
  if (definition.proxy.target_url) return definition.proxy.target_url;
  return isSupergraphApi(definition) || isCombinedGraph(definition.graphql) ? 'http://graph-without-target.invalid/' : definition.proxy.target_url;
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
  if (!engine) throw new Error('it is a GraphQL API and this node does not run the graphql-engine service (GW_SERVICES)');
  return engine.compile(definition, deps.lookupApi);
}

/** Keys always go through the limiter (their quota and limits); keyless APIs only when they set a limit. */
function usesLimits(definition: ApiDefinition, versions: CompiledVersion[]): boolean {
  const global = definition.global_rate_limit as { rate?: number; per?: number } | undefined;
  return definition.use_keyless !== true || Boolean(global?.rate && global?.per) || versions.some((v) => v.hasEndpointRateLimits);
}

/** `extended_paths.rate_limit`: `{path, method, enabled, rate, per}`, tried in order. */
function compileEndpointRateLimits(entries: unknown, ignoreCase: boolean): Pick<CompiledVersion, 'rateLimitFor' | 'hasEndpointRateLimits'> {
  const list = Array.isArray(entries) ? entries : [];
  const lookup = compileEndpointEntries(list, ignoreCase, (entry) =>
    Number(entry.rate) > 0 && Number(entry.per) > 0 ? { index: list.indexOf(entry), rate: Number(entry.rate), per: Number(entry.per) } : undefined,
  );
  if (!lookup) return { hasEndpointRateLimits: false, rateLimitFor: () => undefined };
  return { hasEndpointRateLimits: true, rateLimitFor: (method, relativePath) => lookup.find(method, relativePath) };
}

/** `extended_paths.hard_timeouts`: `{path, method, timeout}` with the timeout in seconds. */
function compileTimeouts(entries: unknown, ignoreCase: boolean, fallbackMs: number): CompiledVersion['timeoutFor'] {
  const lookup = compileEndpointEntries(entries, ignoreCase, (entry) => (Number(entry.timeout) > 0 ? Number(entry.timeout) * 1000 : undefined));
  if (!lookup) return () => fallbackMs;
  return (method, relativePath) => lookup.find(method, relativePath) ?? fallbackMs;
}

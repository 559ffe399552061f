import type { ApisCreateParams } from '../../../../contracts/apis/actions';
import type { HookReference } from '../../../../contracts/apis/api-definition';
import { durationSeconds } from './duration';
import { GATEWAY_EXTENSION, type OasDocument } from './document';
import {
  on,
  type GatewayExtension,
  type HeaderTransformSettings,
  type PluginEntry,
  type TrafficLogSettings,
} from './gateway-extension';
import { authenticationToClassic } from './to-classic-auth';
import { versioningToClassic } from './to-classic-versioning';
import { operationsToClassic } from './to-classic-operations';
import { cacheToClassic } from './cache';
import { corsToClassic, upstreamHealthToClassic } from './upstream-health';

type Classic = Record<string, unknown>;
export type ClassicInput = ApisCreateParams['api_definition'];

/**
 * Compiles a checked OAS document into the classic definition every gateway already serves:
 * one chain for both forms. The document itself is kept beside it by the store (for reads and
 * export); gateways only ever see the classic form (`is_oas: true`).
 */
export function gatewayExtensionToClassic(document: OasDocument): ClassicInput {
  const x = document[GATEWAY_EXTENSION] as GatewayExtension;
  const definition: Classic = {
    name: x.info.name,
    active: x.info.state?.active ?? true,
    is_oas: true,
    proxy: {
      listen_path: x.server.listenPath.value,
      target_url: x.upstream.url,
      strip_listen_path: x.server.listenPath.strip === true,
    },
    ...authenticationToClassic(document, x),
    ...serverToClassic(x),
    ...upstreamToClassic(x),
    ...globalMiddlewareToClassic(x),
    version_data: versionData(document, x),
    ...versioningToClassic(x),
  };
  const health = upstreamHealthToClassic(x.upstream);
  Object.assign(definition.proxy as Classic, health.proxy);
  Object.assign(
    definition,
    health.rest,
    corsToClassic(x.middleware?.global?.cors),
    cacheToClassic(x.middleware?.global?.cache),
  );
  if (x.info.id) definition.api_id = x.info.id;
  if (x.info.state?.internal === true) definition.internal = true;
  return definition as ClassicInput;
}

function serverToClassic(x: GatewayExtension): Classic {
  const { server } = x;
  const out: Classic = {};
  if (on(server.customDomain) && server.customDomain!.name) out.domain = server.customDomain!.name;
  if (on(server.clientCertificates))
    Object.assign(out, { use_mutual_tls_auth: true, client_certificates: server.clientCertificates!.allowlist ?? [] });
  if (on(server.ipAccessControl)) {
    const { allow = [], block = [] } = server.ipAccessControl!;
    if (allow.length > 0) Object.assign(out, { enable_ip_whitelisting: true, allowed_ips: allow });
    if (block.length > 0) Object.assign(out, { enable_ip_blacklisting: true, blacklisted_ips: block });
  }
  if (on(server.contextVariables)) out.enable_context_vars = true;
  if (on(server.detailedTracing)) out.detailed_tracing = true;
  return out;
}

/**
 * `server.eventHandlers` (type webhook) as hook references: an inline webhook (url, method,
 * headers, bodyTemplate as its template path), or the stored webhook its `id` names; the
 * cool-down as `event_timeout`. Delivered by the webhooks service like any hook reference.
 */
export function eventHandlersToHookReferences(document: OasDocument): HookReference[] {
  const x = document[GATEWAY_EXTENSION] as GatewayExtension;
  return (x.server.eventHandlers ?? []).filter(on).map((h) => {
    const timeout = h.cooldownPeriod ? Math.round(durationSeconds(h.cooldownPeriod) ?? 0) : 0;
    const hook: Record<string, unknown> = {
      name: h.name ?? h.trigger,
      method: h.method ?? 'POST',
      target_path: h.url,
      header_map: Object.fromEntries((h.headers ?? []).map((e) => [e.name, e.value])),
      event_timeout: timeout,
    };
    if (h.id) hook.id = h.id;
    if (h.bodyTemplate) hook.template_path = h.bodyTemplate;
    return { event_name: h.trigger, hook, event_timeout: timeout };
  });
}

function upstreamToClassic(x: GatewayExtension): Classic {
  const out: Classic = {};
  const limit = x.upstream.rateLimit;
  if (on(limit)) out.global_rate_limit = { rate: limit!.rate, per: durationSeconds(limit!.per) ?? 0 };
  const mtls = x.upstream.mutualTLS;
  if (on(mtls))
    out.upstream_certificates = Object.fromEntries(
      (mtls!.domainToCertificateMapping ?? []).map((m) => [m.domain, m.certificateId]),
    );
  return out;
}

const PLUGIN_HOOKS: Array<[keyof NonNullable<NonNullable<GatewayExtension['middleware']>['global']>, string]> = [
  ['prePlugins', 'pre'],
  ['postAuthenticationPlugins', 'post_key_auth'],
  ['postPlugins', 'post'],
  ['responsePlugins', 'response'],
];

function globalMiddlewareToClassic(x: GatewayExtension): Classic {
  const global = x.middleware?.global;
  if (!global) return {};
  const out: Classic = {};
  if (global.skipRateLimit === true) out.disable_rate_limit = true;
  if (global.skipQuota === true) out.disable_quota = true;
  if (on(global.contextVariables)) out.enable_context_vars = true;
  if (global.trafficLogs) Object.assign(out, trafficLogsToClassic(global.trafficLogs));
  const middleware: Classic = {};
  for (const [field, hook] of PLUGIN_HOOKS) {
    const entries = global[field] as PluginEntry[] | undefined;
    if (entries?.length)
      middleware[hook] = entries.map((p) => ({ name: p.functionName, path: p.path, disabled: p.enabled !== true }));
  }
  if (Object.keys(middleware).length > 0)
    out.custom_middleware = { driver: global.pluginConfig?.driver ?? 'node', ...middleware };
  return out;
}

/** Without `trafficLogs` an API records as a classic one without `do_not_track` does. */
function trafficLogsToClassic(logs: TrafficLogSettings): Classic {
  const out: Classic = { do_not_track: logs.enabled !== true };
  if (logs.tagHeaders?.length) out.tag_headers = logs.tagHeaders;
  const retention = durationSeconds(logs.customRetentionPeriod);
  if (retention !== undefined && retention > 0) out.expire_analytics_after = Math.ceil(retention);
  return out;
}

/** One version, `Default`: the global header and size settings and every operation's endpoint lists. */
function versionData(document: OasDocument, x: GatewayExtension): Classic {
  const global = x.middleware?.global;
  const version: Classic = {
    name: 'Default',
    use_extended_paths: true,
    extended_paths: operationsToClassic(document, x.middleware?.operations ?? {}),
  };
  Object.assign(version, headerFields(global?.transformRequestHeaders, 'global_headers', 'global_headers_remove'));
  Object.assign(
    version,
    headerFields(global?.transformResponseHeaders, 'global_response_headers', 'global_response_headers_remove'),
  );
  if (on(global?.requestSizeLimit)) version.global_size_limit = global!.requestSizeLimit!.value;
  return { not_versioned: true, default_version: 'Default', versions: { Default: version } };
}

function headerFields(settings: HeaderTransformSettings | undefined, set: string, remove: string): Classic {
  if (!on(settings)) return {};
  return {
    [set]: Object.fromEntries((settings!.add ?? []).map((e) => [e.name, e.value])),
    [remove]: settings!.remove ?? [],
  };
}

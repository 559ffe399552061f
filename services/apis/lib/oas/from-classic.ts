import type { ApiDefinition } from '../../../../contracts/apis/api-definition';
import { versioningFromClassic } from './to-classic-versioning';
import { GATEWAY_EXTENSION, type OasDocument, type SecurityScheme } from './document';
import { durationText } from './duration';
import type {
  GatewayExtension,
  HeaderTransformSettings,
  OperationSettings,
  SchemeSettings,
  TrafficLogSettings,
} from './gateway-extension';
import { cacheFromClassic } from './cache';
import { jwtFromClassic } from './from-classic-jwt';
import { corsFromClassic, upstreamHealthFromClassic } from './upstream-health';
import { operationIdOf, operationsFromClassic, type RebuiltOperation } from './from-classic-operations';

type Classic = Record<string, unknown>;

/**
 * A classic definition as an OAS document carrying `x-gw-api-gateway`: what the two forms share
 * (identity, upstream, listen path, authentication, limits, header and size settings, the
 * endpoint lists of the default version as operations). Compiling the result gives back the
 * same classic settings (test/integration/oas-apis.spec.ts round-trips it).
 */
export function classicToOas(definition: ApiDefinition): OasDocument {
  const d = definition as Classic & ApiDefinition;
  const version = defaultVersion(d);
  const extended = (version.use_extended_paths === true ? version.extended_paths : undefined) as Classic | undefined;
  const operations = operationsFromClassic(extended);
  const security = securityOf(d);
  const extension: GatewayExtension = {
    info: {
      name: d.name,
      id: d.api_id,
      dbId: d.id,
      orgId: d.org_id,
      state: { active: d.active !== false, ...(d.internal === true ? { internal: true } : {}) },
    },
    upstream: upstreamOf(d),
    server: serverOf(d, security.settings),
  };
  const versioning = versioningFromClassic(d);
  if (versioning) extension.info.versioning = versioning;
  const middleware = {
    global: globalOf(d, version),
    operations: Object.fromEntries(operations.map((op) => [operationIdOf(op), op.settings])) as Record<
      string,
      OperationSettings
    >,
  };
  if (Object.keys(middleware.global).length > 0 || operations.length > 0)
    extension.middleware =
      Object.keys(middleware.global).length > 0 ? middleware : { operations: middleware.operations };
  const document: OasDocument = {
    openapi: '3.0.3',
    info: { title: d.name, version: '1.0.0' },
    paths: pathsOf(operations),
    components:
      Object.keys(security.schemes).length > 0
        ? { securitySchemes: security.schemes as Record<string, SecurityScheme> }
        : {},
    ...(Object.keys(security.schemes).length > 0
      ? { security: [Object.fromEntries(Object.keys(security.schemes).map((name) => [name, []]))] }
      : {}),
    [GATEWAY_EXTENSION]: extension,
  };
  return document;
}

function defaultVersion(d: Classic): Classic {
  const data = (d.version_data ?? {}) as { default_version?: string; versions?: Record<string, Classic> };
  const versions = data.versions ?? {};
  return versions[data.default_version ?? ''] ?? versions.Default ?? Object.values(versions)[0] ?? {};
}

function pathsOf(operations: RebuiltOperation[]): OasDocument['paths'] {
  const paths: OasDocument['paths'] = {};
  for (const op of operations) {
    const operation: Classic = {
      operationId: operationIdOf(op),
      responses: { [String(op.settings.mockResponse?.code ?? 200)]: { description: 'Response' } },
    };
    const parameters = [...((op.parameters as Classic[] | undefined) ?? [])];
    for (const [, name] of op.path.matchAll(/\{([^/{}]+)\}/g)) {
      if (!parameters.some((p) => p.in === 'path' && p.name === name))
        parameters.push({ name, in: 'path', required: true, schema: { type: 'string' } });
    }
    if (parameters.length > 0) operation.parameters = parameters;
    if (op.requestBody) operation.requestBody = op.requestBody;
    (paths[op.path] ??= {})[op.method.toLowerCase()] = operation;
  }
  return paths;
}

function upstreamOf(d: Classic & ApiDefinition): GatewayExtension['upstream'] {
  const upstream: GatewayExtension['upstream'] = { url: d.proxy.target_url, ...upstreamHealthFromClassic(d) };
  const limit = d.global_rate_limit as { rate?: number; per?: number } | undefined;
  if (limit && Number(limit.rate) > 0 && Number(limit.per) > 0)
    upstream.rateLimit = { enabled: true, rate: Number(limit.rate), per: durationText(Number(limit.per)) };
  const certs = d.upstream_certificates as Record<string, string> | undefined;
  if (certs && Object.keys(certs).length > 0)
    upstream.mutualTLS = {
      enabled: true,
      domainToCertificateMapping: Object.entries(certs).map(([domain, certificateId]) => ({ domain, certificateId })),
    };
  return upstream;
}

function serverOf(d: Classic & ApiDefinition, schemes: Record<string, SchemeSettings>): GatewayExtension['server'] {
  const server: GatewayExtension['server'] = {
    listenPath: { value: d.proxy.listen_path, strip: d.proxy.strip_listen_path === true },
  };
  if (typeof d.domain === 'string' && d.domain !== '') server.customDomain = { enabled: true, name: d.domain };
  if (d.use_keyless !== true) {
    const authentication: NonNullable<GatewayExtension['server']['authentication']> = {
      enabled: true,
      stripAuthorizationData: d.strip_auth_data === true,
      securitySchemes: schemes,
    };
    if (d.enable_signature_checking === true) {
      authentication.hmac = {
        enabled: true,
        allowedAlgorithms: (d.hmac_allowed_algorithms as string[] | undefined) ?? [],
        allowedClockSkew: Number(d.hmac_allowed_clock_skew) || 0,
      };
    }
    if (typeof d.base_identity_provided_by === 'string' && d.base_identity_provided_by !== '')
      authentication.baseIdentityProvider = d.base_identity_provided_by;
    server.authentication = authentication;
  }
  if (d.use_mutual_tls_auth === true)
    server.clientCertificates = { enabled: true, allowlist: (d.client_certificates as string[] | undefined) ?? [] };
  const allow = d.enable_ip_whitelisting === true ? ((d.allowed_ips as string[] | undefined) ?? []) : [];
  const block = d.enable_ip_blacklisting === true ? ((d.blacklisted_ips as string[] | undefined) ?? []) : [];
  if (allow.length > 0 || block.length > 0)
    server.ipAccessControl = { enabled: true, ...(allow.length ? { allow } : {}), ...(block.length ? { block } : {}) };
  if (d.detailed_tracing === true) server.detailedTracing = { enabled: true };
  return server;
}

/** The classic authentication modes as the document's security schemes and their extension settings. */
function securityOf(d: Classic & ApiDefinition): {
  schemes: Record<string, Classic>;
  settings: Record<string, SchemeSettings>;
} {
  const schemes: Record<string, Classic> = {};
  const settings: Record<string, SchemeSettings> = {};
  if (d.use_keyless === true) return { schemes, settings };
  const configs = (d.auth_configs ?? {}) as Record<string, Classic>;
  const onlyOthers =
    d.use_basic_auth === true || d.use_oauth2 === true || d.enable_signature_checking === true || d.enable_jwt === true;
  if (d.use_standard_auth === true || !onlyOthers) {
    const token = configs.authToken ?? d.auth ?? {};
    const header =
      typeof token.auth_header_name === 'string' && token.auth_header_name !== ''
        ? token.auth_header_name
        : 'Authorization';
    schemes.authToken = { type: 'apiKey', in: 'header', name: header };
    const s: SchemeSettings = { enabled: true, header: { enabled: true, name: header } };
    if (token.use_param === true) s.query = { enabled: true, name: String(token.param_name || header) };
    if (token.use_cookie === true) s.cookie = { enabled: true, name: String(token.cookie_name || header) };
    if (token.use_certificate === true) s.enableClientCertificate = true;
    settings.authToken = s;
  }
  if (d.use_basic_auth === true) {
    schemes.basicAuth = { type: 'http', scheme: 'basic' };
    const basic = (configs.basic ?? {}) as Record<string, { enabled?: boolean; name?: string } | undefined>;
    const options = (d.basic_auth ?? {}) as Classic;
    const s: SchemeSettings = { enabled: true, disableCaching: options.disable_caching === true };
    if (Number(options.cache_ttl) > 0) s.cacheTTL = Number(options.cache_ttl);
    for (const where of ['header', 'query', 'cookie'] as const)
      if (basic[where])
        s[where] = {
          enabled: basic[where].enabled === true,
          ...(basic[where].name ? { name: basic[where].name } : {}),
        };
    if (options.extract_from_body === true)
      s.extractCredentialsFromBody = {
        enabled: true,
        userRegexp: String(options.body_user_regexp ?? ''),
        passwordRegexp: String(options.body_password_regexp ?? ''),
      };
    settings.basicAuth = s;
  }
  if (d.use_oauth2 === true) {
    const meta = (d.oauth_meta ?? {}) as {
      allowed_access_types?: string[];
      allowed_authorize_types?: string[];
      auth_login_redirect?: string;
      require_pkce?: boolean;
    };
    const flows: Classic = {};
    const access = meta.allowed_access_types ?? [];
    if (access.includes('authorization_code'))
      flows.authorizationCode = { authorizationUrl: '/oauth/authorize', tokenUrl: '/oauth/token', scopes: {} };
    if (access.includes('client_credentials')) flows.clientCredentials = { tokenUrl: '/oauth/token', scopes: {} };
    if (access.includes('password')) flows.password = { tokenUrl: '/oauth/token', scopes: {} };
    schemes.oauth = { type: 'oauth2', flows };
    settings.oauth = {
      enabled: true,
      allowedAuthorizeTypes: (meta.allowed_authorize_types ?? ['code']).filter((t) => t === 'code' || t === 'token'),
      authLoginRedirect: meta.auth_login_redirect ?? '',
    };
    if (meta.require_pkce === true) settings.oauth.requirePkce = true;
  }
  if (d.enable_jwt === true) {
    const jwt = jwtFromClassic(d);
    schemes.jwtAuth = jwt.scheme;
    settings.jwtAuth = jwt.settings;
  }
  return { schemes, settings };
}

function globalOf(d: Classic, version: Classic): NonNullable<NonNullable<GatewayExtension['middleware']>['global']> {
  const global: NonNullable<NonNullable<GatewayExtension['middleware']>['global']> = {};
  const request = headerSettings(version.global_headers, version.global_headers_remove);
  if (request) global.transformRequestHeaders = request;
  const response = headerSettings(version.global_response_headers, version.global_response_headers_remove);
  if (response) global.transformResponseHeaders = response;
  if (Number(version.global_size_limit) > 0)
    global.requestSizeLimit = { enabled: true, value: Number(version.global_size_limit) };
  if (d.disable_rate_limit === true) global.skipRateLimit = true;
  if (d.disable_quota === true) global.skipQuota = true;
  if (d.enable_context_vars === true) global.contextVariables = { enabled: true };
  const trafficLogs = trafficLogsFromClassic(d);
  if (trafficLogs) global.trafficLogs = trafficLogs;
  const cors = corsFromClassic(d);
  if (cors) global.cors = cors;
  const cache = cacheFromClassic(d);
  if (cache) global.cache = cache;
  const middleware = (d.custom_middleware ?? {}) as Record<string, unknown>;
  const hooks: Array<[string, 'prePlugins' | 'postAuthenticationPlugins' | 'postPlugins' | 'responsePlugins']> = [
    ['pre', 'prePlugins'],
    ['post_key_auth', 'postAuthenticationPlugins'],
    ['post', 'postPlugins'],
    ['response', 'responsePlugins'],
  ];
  for (const [hook, field] of hooks) {
    const entries = Array.isArray(middleware[hook])
      ? (middleware[hook] as Array<{ name?: string; path?: string; disabled?: boolean }>)
      : [];
    if (entries.length > 0)
      global[field] = entries.map((e) => ({
        enabled: e.disabled !== true,
        functionName: e.name ?? '',
        path: e.path ?? '',
      }));
  }
  if (hooks.some(([, field]) => global[field])) global.pluginConfig = { driver: 'node' };
  return global;
}

function headerSettings(set: unknown, remove: unknown): HeaderTransformSettings | undefined {
  const add =
    set && typeof set === 'object'
      ? Object.entries(set as Record<string, unknown>).map(([name, value]) => ({ name, value: String(value) }))
      : [];
  const removed = Array.isArray(remove) ? remove.filter((r): r is string => typeof r === 'string') : [];
  if (add.length === 0 && removed.length === 0) return undefined;
  return { enabled: true, add, remove: removed };
}

/** Only an API that records differently from the default gets `trafficLogs`. */
function trafficLogsFromClassic(d: Classic): TrafficLogSettings | undefined {
  const tagHeaders = Array.isArray(d.tag_headers)
    ? (d.tag_headers as unknown[]).filter((h) => typeof h === 'string')
    : [];
  const retention = Number(d.expire_analytics_after);
  if (d.do_not_track !== true && tagHeaders.length === 0 && !(retention > 0)) return undefined;
  return {
    enabled: d.do_not_track !== true,
    ...(tagHeaders.length > 0 ? { tagHeaders: tagHeaders } : {}),
    ...(retention > 0 ? { customRetentionPeriod: durationText(retention) } : {}),
  };
}

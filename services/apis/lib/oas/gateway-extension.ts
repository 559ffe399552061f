import type { CacheSettings } from './cache';
import type { CircuitBreakerSettings, CorsSettings, UpstreamHealthSettings } from './upstream-health';
/** The typed shape of `x-gw-api-gateway` (checked by gateway-extension-schema.ts before it is read). */

export interface Toggle {
  enabled?: boolean;
}
export interface NameToggle extends Toggle {
  name?: string;
}
export interface HeaderEntry {
  name: string;
  value: string;
}
export interface HeaderTransformSettings extends Toggle {
  add?: HeaderEntry[];
  remove?: string[];
}
export interface ValueSetting extends Toggle {
  value: number;
}
export interface RateLimitSettings extends Toggle {
  rate: number;
  per: string;
}
export interface PluginEntry extends Toggle {
  functionName: string;
  path: string;
}

export interface SchemeSettings extends Toggle, JwtSchemeSettings {
  header?: NameToggle;
  query?: NameToggle;
  cookie?: NameToggle;
  enableClientCertificate?: boolean;
  cacheTTL?: number;
  disableCaching?: boolean;
  extractCredentialsFromBody?: Toggle & { userRegexp?: string; passwordRegexp?: string };
  allowedAuthorizeTypes?: string[];
  authLoginRedirect?: string;
  /** OAuth 2.0: authorisation code flows must use PKCE (classic `oauth_meta.require_pkce`); @default false */
  requirePkce?: boolean;
  notifications?: { sharedSecret?: string; onKeyChangeUrl?: string };
}

/** A JWKS endpoint; `cacheTimeout` in seconds or as a duration (`5m`), as the reference writes it. */
export interface JwksUri {
  url: string;
  cacheTimeout?: number | string;
}

/** Scope claims of a token mapped to policies (the reference's `Scopes`, shared with OpenID Connect). */
export interface ScopeSettings {
  claimName?: string;
  claims?: string[];
  scopeToPolicyMapping?: Array<{ scope: string; policyId: string }>;
}

/** The reference's `JWT` settings of an http bearer scheme with `bearerFormat: JWT`. */
export interface JwtSchemeSettings {
  source?: string;
  jwksURIs?: JwksUri[];
  signingMethod?: 'hmac' | 'rsa' | 'ecdsa' | 'eddsa';
  identityBaseField?: string;
  subjectClaims?: string[];
  skipKid?: boolean;
  policyFieldName?: string;
  basePolicyClaims?: string[];
  clientBaseField?: string;
  scopes?: ScopeSettings;
  defaultPolicies?: string[];
  issuedAtValidationSkew?: number;
  notBeforeValidationSkew?: number;
  expiresAtValidationSkew?: number;
  allowedIssuers?: string[];
  allowedAudiences?: string[];
  allowedSubjects?: string[];
  jtiValidation?: Toggle;
  idpClientIdMappingDisabled?: boolean;
}

export interface OperationSettings {
  allow?: Toggle;
  block?: Toggle;
  ignoreAuthentication?: Toggle;
  trackEndpoint?: Toggle;
  doNotTrackEndpoint?: Toggle;
  mockResponse?: Toggle & {
    code?: number;
    body?: string;
    headers?: HeaderEntry[];
    fromOASExamples?: Toggle & { code?: number; contentType?: string; exampleName?: string };
  };
  requestSizeLimit?: ValueSetting;
  transformRequestHeaders?: HeaderTransformSettings;
  transformResponseHeaders?: HeaderTransformSettings;
  enforceTimeout?: ValueSetting;
  rateLimit?: RateLimitSettings;
  validateRequest?: Toggle & { errorResponseCode?: number };
  circuitBreaker?: CircuitBreakerSettings;
  urlRewrite?: Toggle & {
    pattern: string;
    rewriteTo: string;
    triggers?: Array<{ condition: 'any' | 'all'; rules: UrlRewriteRule[]; rewriteTo: string }>;
  };
  transformRequestBody?: BodyTransformSettings;
  transformResponseBody?: BodyTransformSettings;
  transformRequestMethod?: Toggle & { toMethod: string };
  cache?: Toggle & { cacheResponseCodes?: number[]; cacheByRegex?: string; timeout?: number };
  internal?: Toggle;
  virtualEndpoint?: Toggle & {
    functionName?: string;
    name?: string;
    path?: string;
    body?: string;
    requireSession?: boolean;
    proxyOnError?: boolean;
  };
}

export interface UrlRewriteRule {
  in: 'header' | 'query' | 'path' | 'sessionMetadata' | 'requestBody' | 'requestContext';
  name?: string;
  pattern: string;
  negate?: boolean;
}

export interface BodyTransformSettings extends Toggle {
  format: 'json' | 'xml';
  path?: string;
  body?: string;
}

export interface EventHandlerSettings extends Toggle {
  trigger: string;
  type: 'webhook';
  id?: string;
  name?: string;
  url: string;
  method?: string;
  headers?: HeaderEntry[];
  bodyTemplate?: string;
  cooldownPeriod?: string;
}

export interface GatewayExtension {
  info: {
    name: string;
    id?: string;
    dbId?: string;
    orgId?: string;
    state?: { active?: boolean; internal?: boolean };
    versioning?: Toggle & {
      name?: string;
      default?: string;
      location?: string;
      key?: string;
      stripVersioningData?: boolean;
      fallbackToDefault?: boolean;
      urlVersioningPattern?: string;
      versions?: Array<{ name: string; id: string }>;
    };
  };
  upstream: UpstreamHealthSettings & {
    url: string;
    rateLimit?: RateLimitSettings;
    mutualTLS?: Toggle & { domainToCertificateMapping?: Array<{ domain: string; certificateId: string }> };
  };
  server: {
    listenPath: { value: string; strip?: boolean };
    customDomain?: NameToggle;
    authentication?: Toggle & {
      stripAuthorizationData?: boolean;
      baseIdentityProvider?: string;
      securitySchemes?: Record<string, SchemeSettings>;
      hmac?: Toggle & { allowedAlgorithms?: string[]; allowedClockSkew?: number };
    };
    clientCertificates?: Toggle & { allowlist?: string[] };
    ipAccessControl?: Toggle & { allow?: string[]; block?: string[] };
    /** read for documents stored before it moved to `middleware.global`, where the reference keeps it */
    contextVariables?: Toggle;
    /** a span per step of the chain in the request's trace (classic `detailed_tracing`) */
    detailedTracing?: Toggle;
    eventHandlers?: EventHandlerSettings[];
  };
  middleware?: {
    global?: {
      transformRequestHeaders?: HeaderTransformSettings;
      transformResponseHeaders?: HeaderTransformSettings;
      requestSizeLimit?: ValueSetting;
      pluginConfig?: { driver?: string };
      prePlugins?: PluginEntry[];
      postAuthenticationPlugins?: PluginEntry[];
      postPlugins?: PluginEntry[];
      responsePlugins?: PluginEntry[];
      skipRateLimit?: boolean;
      skipQuota?: boolean;
      cors?: CorsSettings;
      cache?: CacheSettings;
      contextVariables?: Toggle;
      trafficLogs?: TrafficLogSettings;
    };
    operations?: Record<string, OperationSettings>;
  };
}

/** A setting is on only with `enabled: true`, as in the reference gateway. */
export function on(toggle: Toggle | undefined): boolean {
  return toggle?.enabled === true;
}

/** Analytics of the API: `do_not_track` (the inverse of enabled), `tag_headers`, `expire_analytics_after`. */
export interface TrafficLogSettings {
  enabled: boolean;
  tagHeaders?: string[];
  customRetentionPeriod?: string;
}

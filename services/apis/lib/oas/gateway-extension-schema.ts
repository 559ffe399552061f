/**
 * The JSON schema of `x-gw-api-gateway`, the reference gateway's `x-tyk-api-gateway` shape.
 * Objects are closed (`additionalProperties: false`): a misspelt or unsupported field is refused
 * with its JSON pointer rather than accepted and ignored.
 */

import { cacheSchema } from './cache';
import { circuitBreakerSchema, corsSchema, upstreamHealthSchemas } from './upstream-health';

const closed = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  properties,
  ...(required.length ? { required } : {}),
});
const enabledOnly = closed({ enabled: { type: 'boolean' } });
const duration = { type: 'string', pattern: '^(\\d+(\\.\\d+)?(ms|s|m|h))+$' };
const nameToggle = closed({ enabled: { type: 'boolean' }, name: { type: 'string', minLength: 1 } });
const headerList = {
  type: 'array',
  items: closed({ name: { type: 'string', minLength: 1 }, value: { type: 'string' } }, ['name', 'value']),
};
const headerTransform = closed({
  enabled: { type: 'boolean' },
  add: headerList,
  remove: { type: 'array', items: { type: 'string', minLength: 1 } },
});
const sizeLimit = closed({ enabled: { type: 'boolean' }, value: { type: 'integer', minimum: 0 } }, ['value']);
const rateLimit = closed({ enabled: { type: 'boolean' }, rate: { type: 'integer', minimum: 0 }, per: duration }, [
  'rate',
  'per',
]);
const plugins = {
  type: 'array',
  items: closed(
    {
      enabled: { type: 'boolean' },
      functionName: { type: 'string', minLength: 1 },
      path: { type: 'string', minLength: 1 },
      rawBodyOnly: { type: 'boolean' },
    },
    ['functionName', 'path'],
  ),
};

const names = { type: 'array', items: { type: 'string', minLength: 1 } };
const seconds = { type: 'integer', minimum: 0 };

/** The reference's JWT settings (apidef/oas/security.go `JWT`), read on an http bearer scheme with bearerFormat JWT. */
const jwtSchemeProperties = {
  source: { type: 'string' },
  jwksURIs: {
    type: 'array',
    items: closed(
      {
        url: { type: 'string', pattern: '^https?://[^\\s/?#]+\\S*$' },
        cacheTimeout: { oneOf: [seconds, duration] },
      },
      ['url'],
    ),
  },
  signingMethod: { type: 'string', enum: ['hmac', 'rsa', 'ecdsa', 'eddsa'] },
  identityBaseField: { type: 'string' },
  subjectClaims: names,
  skipKid: { type: 'boolean' },
  policyFieldName: { type: 'string' },
  basePolicyClaims: names,
  clientBaseField: { type: 'string' },
  scopes: closed({
    claimName: { type: 'string' },
    claims: names,
    scopeToPolicyMapping: {
      type: 'array',
      items: closed({ scope: { type: 'string', minLength: 1 }, policyId: { type: 'string', minLength: 1 } }, [
        'scope',
        'policyId',
      ]),
    },
  }),
  defaultPolicies: names,
  issuedAtValidationSkew: seconds,
  notBeforeValidationSkew: seconds,
  expiresAtValidationSkew: seconds,
  allowedIssuers: names,
  allowedAudiences: names,
  allowedSubjects: names,
  jtiValidation: enabledOnly,
  idpClientIdMappingDisabled: { type: 'boolean' },
};

const securityScheme = closed({
  enabled: { type: 'boolean' },
  header: nameToggle,
  query: nameToggle,
  cookie: nameToggle,
  enableClientCertificate: { type: 'boolean' },
  cacheTTL: { type: 'integer', minimum: 0 },
  disableCaching: { type: 'boolean' },
  extractCredentialsFromBody: closed({
    enabled: { type: 'boolean' },
    userRegexp: { type: 'string' },
    passwordRegexp: { type: 'string' },
  }),
  allowedAuthorizeTypes: { type: 'array', items: { type: 'string', enum: ['code', 'token'] } },
  authLoginRedirect: { type: 'string' },
  requirePkce: { type: 'boolean' },
  notifications: closed({ sharedSecret: { type: 'string' }, onKeyChangeUrl: { type: 'string' } }),
  ...jwtSchemeProperties,
});

const bodyTransform = closed(
  {
    enabled: { type: 'boolean' },
    format: { type: 'string', enum: ['json', 'xml'] },
    path: { type: 'string', minLength: 1 },
    body: { type: 'string' },
  },
  ['format'],
);
const rewriteRule = closed(
  {
    in: { type: 'string', enum: ['header', 'query', 'path', 'sessionMetadata', 'requestBody', 'requestContext'] },
    name: { type: 'string' },
    pattern: { type: 'string' },
    negate: { type: 'boolean' },
  },
  ['in', 'pattern'],
);
const urlRewrite = closed(
  {
    enabled: { type: 'boolean' },
    pattern: { type: 'string' },
    rewriteTo: { type: 'string' },
    triggers: {
      type: 'array',
      items: closed(
        {
          condition: { type: 'string', enum: ['any', 'all'] },
          rules: { type: 'array', items: rewriteRule },
          rewriteTo: { type: 'string' },
        },
        ['condition', 'rules', 'rewriteTo'],
      ),
    },
  },
  ['pattern', 'rewriteTo'],
);

/**
 * An MCP primitive's settings, by name or URI. Open, unlike the rest: the reference's primitive
 * carries every operation middleware; gw enforces allow, block and rateLimit and keeps the others.
 */
const mcpPrimitives = {
  type: 'object',
  additionalProperties: {
    type: 'object',
    properties: { allow: enabledOnly, block: enabledOnly, rateLimit },
  },
};

const operation = closed({
  allow: enabledOnly,
  block: enabledOnly,
  ignoreAuthentication: enabledOnly,
  trackEndpoint: enabledOnly,
  doNotTrackEndpoint: enabledOnly,
  mockResponse: closed({
    enabled: { type: 'boolean' },
    code: { type: 'integer', minimum: 100, maximum: 599 },
    body: { type: 'string' },
    headers: headerList,
    fromOASExamples: closed({
      enabled: { type: 'boolean' },
      code: { type: 'integer', minimum: 100, maximum: 599 },
      contentType: { type: 'string' },
      exampleName: { type: 'string' },
    }),
  }),
  requestSizeLimit: sizeLimit,
  transformRequestHeaders: headerTransform,
  transformResponseHeaders: headerTransform,
  enforceTimeout: closed({ enabled: { type: 'boolean' }, value: { type: 'integer', minimum: 1 } }, ['value']),
  rateLimit,
  validateRequest: closed({
    enabled: { type: 'boolean' },
    errorResponseCode: { type: 'integer', minimum: 400, maximum: 599 },
  }),
  circuitBreaker: circuitBreakerSchema,
  urlRewrite,
  transformRequestBody: bodyTransform,
  transformResponseBody: bodyTransform,
  transformRequestMethod: closed({ enabled: { type: 'boolean' }, toMethod: { type: 'string', minLength: 1 } }, [
    'toMethod',
  ]),
  cache: closed({
    enabled: { type: 'boolean' },
    cacheResponseCodes: { type: 'array', items: { type: 'integer', minimum: 100, maximum: 599 } },
    cacheByRegex: { type: 'string' },
    timeout: { type: 'integer', minimum: 0 },
  }),
  internal: enabledOnly,
  virtualEndpoint: closed({
    enabled: { type: 'boolean' },
    functionName: { type: 'string', pattern: '^[A-Za-z_$][\\w$]*$' },
    name: { type: 'string', pattern: '^[A-Za-z_$][\\w$]*$' },
    path: { type: 'string', minLength: 1 },
    body: { type: 'string' },
    requireSession: { type: 'boolean' },
    proxyOnError: { type: 'boolean' },
  }),
});

export const gatewayExtensionSchema = closed(
  {
    info: closed(
      {
        name: { type: 'string', minLength: 1, maxLength: 255 },
        id: { type: 'string', pattern: '^[A-Za-z0-9._~-]{1,128}$' },
        dbId: { type: 'string' },
        orgId: { type: 'string' },
        state: closed({ active: { type: 'boolean' }, internal: { type: 'boolean' } }),
        versioning: closed({
          enabled: { type: 'boolean' },
          name: { type: 'string' },
          default: { type: 'string' },
          location: { type: 'string', enum: ['header', 'url-param', 'url'] },
          key: { type: 'string' },
          stripVersioningData: { type: 'boolean' },
          fallbackToDefault: { type: 'boolean' },
          urlVersioningPattern: { type: 'string' },
          versions: {
            type: 'array',
            items: closed({ name: { type: 'string' }, id: { type: 'string' } }, ['name', 'id']),
          },
        }),
      },
      ['name'],
    ),
    upstream: closed(
      {
        // h2c://: HTTP/2 in cleartext to the upstream, as the classic target_url takes it
        // gw://<api_id>/mcp: a REST API offered as MCP (MCP APIs only, mcp-extension.ts)
        url: { type: 'string', pattern: '^((https?|h2c)://[^\\s/?#]+\\S*|gw://[^\\s/?#]+/mcp)$' },
        rateLimit,
        ...upstreamHealthSchemas,
        mutualTLS: closed({
          enabled: { type: 'boolean' },
          domainToCertificateMapping: {
            type: 'array',
            items: closed(
              { domain: { type: 'string', minLength: 1 }, certificateId: { type: 'string', minLength: 1 } },
              ['domain', 'certificateId'],
            ),
          },
        }),
      },
      ['url'],
    ),
    server: closed(
      {
        listenPath: closed({ value: { type: 'string', pattern: '^/\\S*$' }, strip: { type: 'boolean' } }, ['value']),
        customDomain: closed({ enabled: { type: 'boolean' }, name: { type: 'string' } }),
        authentication: closed({
          enabled: { type: 'boolean' },
          stripAuthorizationData: { type: 'boolean' },
          baseIdentityProvider: {
            type: 'string',
            enum: ['auth_token', 'basic_auth_user', 'hmac_key', 'oauth_key', 'custom_auth', 'jwt_claim'],
          },
          securitySchemes: { type: 'object', additionalProperties: securityScheme },
          hmac: closed({
            enabled: { type: 'boolean' },
            allowedAlgorithms: {
              type: 'array',
              items: { type: 'string', enum: ['hmac-sha1', 'hmac-sha256', 'hmac-sha384', 'hmac-sha512', 'rsa-sha256'] },
            },
            allowedClockSkew: { type: 'number', minimum: 0 },
          }),
        }),
        clientCertificates: closed({
          enabled: { type: 'boolean' },
          allowlist: { type: 'array', items: { type: 'string' } },
        }),
        ipAccessControl: closed({
          enabled: { type: 'boolean' },
          allow: { type: 'array', items: { type: 'string' } },
          block: { type: 'array', items: { type: 'string' } },
        }),
        contextVariables: enabledOnly,
        detailedTracing: enabledOnly,
        eventHandlers: {
          type: 'array',
          items: closed(
            {
              enabled: { type: 'boolean' },
              trigger: { type: 'string', minLength: 1 },
              type: { type: 'string', enum: ['webhook'] },
              id: { type: 'string' },
              name: { type: 'string' },
              url: { type: 'string', pattern: '^https?://' },
              method: { type: 'string' },
              headers: headerList,
              bodyTemplate: { type: 'string' },
              cooldownPeriod: duration,
            },
            ['trigger', 'type', 'url'],
          ),
        },
      },
      ['listenPath'],
    ),
    middleware: closed({
      global: closed({
        transformRequestHeaders: headerTransform,
        transformResponseHeaders: headerTransform,
        requestSizeLimit: sizeLimit,
        pluginConfig: closed({ driver: { type: 'string', enum: ['node'] } }),
        prePlugins: plugins,
        postAuthenticationPlugins: plugins,
        postPlugins: plugins,
        responsePlugins: plugins,
        skipRateLimit: { type: 'boolean' },
        skipQuota: { type: 'boolean' },
        cors: corsSchema,
        cache: cacheSchema,
        contextVariables: enabledOnly,
        trafficLogs: closed(
          {
            enabled: { type: 'boolean' },
            tagHeaders: {
              type: 'array',
              maxItems: 32,
              items: { type: 'string', pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$" },
            },
            customRetentionPeriod: duration,
          },
          ['enabled'],
        ),
      }),
      operations: { type: 'object', additionalProperties: operation },
      mcpTools: mcpPrimitives,
      mcpResources: mcpPrimitives,
      mcpPrompts: mcpPrimitives,
    }),
  },
  ['info', 'upstream', 'server'],
);

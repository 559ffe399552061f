import type { ApiDefinition } from '../../../contracts/apis/api-definition';

type Fields = Record<string, unknown>;

export const JWT_SIGNING_METHODS = ['hmac', 'rsa', 'ecdsa', 'eddsa'] as const;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const SKEWS = ['jwt_expires_at_validation_skew', 'jwt_issued_at_validation_skew', 'jwt_not_before_validation_skew'];
const FLAGS = ['enable_jwt', 'jwt_skip_kid', 'jwt_require_jti', 'idp_client_id_mapping_disabled', 'use_openid'];
const NAMES = ['jwt_identity_base_field', 'jwt_client_base_field', 'jwt_policy_field_name', 'jwt_scope_claim_name'];
const NAME_LISTS = [
  'jwt_default_policies',
  'jwt_allowed_issuers',
  'jwt_allowed_audiences',
  'jwt_allowed_subjects',
  'jwt_subject_claims',
  'jwt_base_policy_claims',
];

/**
 * What a gateway could not use in a definition's JWT and OpenID Connect settings, found at save
 * time and named by field ("jwt_signing_method: …"), rather than every request to the API
 * failing once a gateway loads it. The destinations these settings name (JWKS URLs, issuers)
 * are judged against the outbound policy by outbound-targets.ts. `enable_jwt` with neither
 * `jwt_source` nor `jwt_jwks_uris` is the reference's one-to-one mode (each token names a key
 * whose `jwt_data.secret` verifies it), so it needs neither.
 */
export function tokenAuthProblem(definition: ApiDefinition): string | undefined {
  const d = definition as Fields;
  for (const field of FLAGS) if (!optional(d[field], isBoolean)) return `${field}: must be true or false`;
  for (const field of NAMES) if (!optional(d[field], isString)) return `${field}: must be a string`;
  for (const field of NAME_LISTS) if (!optional(d[field], isStringList)) return `${field}: must be a list of strings`;
  for (const field of SKEWS)
    if (!optional(d[field], isSeconds)) return `${field}: must be a number of seconds, 0 or more`;
  const method = d.jwt_signing_method;
  if (!optional(method, (m) => m === '' || (JWT_SIGNING_METHODS as readonly unknown[]).includes(m)))
    return `jwt_signing_method: ${JSON.stringify(method)} is not one of ${JWT_SIGNING_METHODS.join(', ')}`;
  return (
    sourceProblem(d.jwt_source) ??
    jwksProblem(d.jwt_jwks_uris) ??
    mappingProblem(d.jwt_scope_to_policy_mapping, 'jwt_scope_to_policy_mapping') ??
    scopesProblem(d.scopes) ??
    locationsProblem(d.auth_configs) ??
    openIdProblem(d.openid_options)
  );
}

/** The decoded text of standard base64 (line breaks allowed, as Go's decoder allows them); undefined when it is not base64. */
export function base64Text(value: string): string | undefined {
  const compact = value.replace(/[\r\n]/g, '');
  if (compact === '' || compact.length % 4 !== 0 || !BASE64.test(compact)) return undefined;
  return Buffer.from(compact, 'base64').toString('utf8');
}

export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function sourceProblem(source: unknown): string | undefined {
  if (source === undefined || source === null || source === '') return undefined;
  if (typeof source !== 'string') return 'jwt_source: must be a string';
  if (isHttpUrl(source) || base64Text(source) !== undefined) return undefined;
  return 'jwt_source: must be base64 (of a shared secret, a PEM public key or certificate, or a JWKS URL) or an http(s) JWKS URL';
}

function jwksProblem(list: unknown): string | undefined {
  if (list === undefined || list === null) return undefined;
  if (!Array.isArray(list)) return 'jwt_jwks_uris: must be a list of {url, cache_timeout}';
  for (const [i, entry] of list.entries()) {
    const at = `jwt_jwks_uris[${i}]`;
    if (!isFields(entry)) return `${at}: must be an object with url and cache_timeout`;
    if (!isHttpUrl(entry.url))
      return `${at}.url: ${JSON.stringify(entry.url)} is not an absolute http:// or https:// URL`;
    if (!optional(entry.cache_timeout, isSeconds)) return `${at}.cache_timeout: must be a number of seconds, 0 or more`;
  }
  return undefined;
}

function scopesProblem(scopes: unknown): string | undefined {
  if (scopes === undefined || scopes === null) return undefined;
  if (!isFields(scopes)) return 'scopes: must be an object with jwt and oidc';
  for (const kind of ['jwt', 'oidc']) {
    const claim = scopes[kind];
    const at = `scopes.${kind}`;
    if (claim === undefined || claim === null) continue;
    if (!isFields(claim)) return `${at}: must be an object with scope_claim_name and scope_to_policy`;
    if (!optional(claim.scope_claim_name, isString)) return `${at}.scope_claim_name: must be a string`;
    if (!optional(claim.claims, isStringList)) return `${at}.claims: must be a list of strings`;
    const problem = mappingProblem(claim.scope_to_policy, `${at}.scope_to_policy`);
    if (problem) return problem;
  }
  return undefined;
}

function mappingProblem(mapping: unknown, at: string): string | undefined {
  if (mapping === undefined || mapping === null) return undefined;
  if (!isFields(mapping) || !Object.values(mapping).every(isString))
    return `${at}: must map each scope to a policy id (string)`;
  return undefined;
}

/** `auth_configs.jwt` and `.oidc` say where the token is read, as `auth_configs.authToken` does. */
function locationsProblem(configs: unknown): string | undefined {
  if (!isFields(configs)) return undefined;
  for (const kind of ['jwt', 'oidc']) {
    const config = configs[kind];
    const at = `auth_configs.${kind}`;
    if (config === undefined || config === null) continue;
    if (!isFields(config)) return `${at}: must be an object`;
    for (const field of ['auth_header_name', 'param_name', 'cookie_name'])
      if (!optional(config[field], isString)) return `${at}.${field}: must be a string`;
    for (const field of ['use_param', 'use_cookie'])
      if (!optional(config[field], isBoolean)) return `${at}.${field}: must be true or false`;
  }
  return undefined;
}

function openIdProblem(options: unknown): string | undefined {
  if (options === undefined || options === null) return undefined;
  if (!isFields(options)) return 'openid_options: must be an object with providers and segregate_by_client';
  if (!optional(options.segregate_by_client, isBoolean))
    return 'openid_options.segregate_by_client: must be true or false';
  const providers = options.providers;
  if (providers === undefined || providers === null) return undefined;
  if (!Array.isArray(providers)) return 'openid_options.providers: must be a list of {issuer, client_ids}';
  for (const [i, provider] of providers.entries()) {
    const at = `openid_options.providers[${i}]`;
    if (!isFields(provider)) return `${at}: must be an object with issuer and client_ids`;
    if (typeof provider.issuer !== 'string' || provider.issuer.trim() === '') return `${at}.issuer: is required`;
    const clients = provider.client_ids;
    if (clients === undefined || clients === null) continue;
    if (!isFields(clients)) return `${at}.client_ids: must map base64 client ids to policy ids`;
    for (const [clientId, policyId] of Object.entries(clients)) {
      if (base64Text(clientId) === undefined)
        return `${at}.client_ids: key ${JSON.stringify(clientId)} is not the base64 of a client id`;
      if (!isString(policyId)) return `${at}.client_ids.${clientId}: must be a policy id (string)`;
    }
  }
  return undefined;
}

/** Unset (absent, or null as the reference's Go encoder writes an empty list or map), or passing `check`. */
const optional = (value: unknown, check: (value: unknown) => boolean) =>
  value === undefined || value === null || check(value);
const isBoolean = (value: unknown) => typeof value === 'boolean';
const isString = (value: unknown) => typeof value === 'string';
const isStringList = (value: unknown) => Array.isArray(value) && value.every(isString);
const isSeconds = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0;
const isFields = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

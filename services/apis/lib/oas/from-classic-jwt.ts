import { durationText } from './duration';
import type { JwtSchemeSettings, ScopeSettings, SchemeSettings } from './gateway-extension';

type Classic = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const list = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.length > 0 ? value.map(String) : undefined;
const seconds = (value: unknown): number | undefined => (Number(value) > 0 ? Number(value) : undefined);
const record = (value: unknown): Classic =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Classic) : {};

/**
 * A classic API's JWT authentication (`enable_jwt`) as an http bearer scheme with bearerFormat
 * JWT and its extension settings; compiled back (to-classic-jwt.ts) it gives the same fields.
 * Settings at their default are left out, as the reference's `omitempty` does.
 */
export function jwtFromClassic(d: Classic): { scheme: Classic; settings: SchemeSettings } {
  const where = record(record(d.auth_configs).jwt);
  const header = text(where.auth_header_name) ?? 'Authorization';
  const settings: SchemeSettings = { enabled: true, header: { enabled: true, name: header } };
  if (where.use_param === true) settings.query = { enabled: true, name: text(where.param_name) ?? header };
  if (where.use_cookie === true) settings.cookie = { enabled: true, name: text(where.cookie_name) ?? header };
  const jwt: JwtSchemeSettings = {
    source: text(d.jwt_source),
    jwksURIs: jwksFromClassic(d.jwt_jwks_uris),
    signingMethod: text(d.jwt_signing_method) as JwtSchemeSettings['signingMethod'],
    identityBaseField: text(d.jwt_identity_base_field),
    subjectClaims: list(d.jwt_subject_claims),
    skipKid: d.jwt_skip_kid === true || undefined,
    policyFieldName: text(d.jwt_policy_field_name),
    basePolicyClaims: list(d.jwt_base_policy_claims),
    clientBaseField: text(d.jwt_client_base_field),
    scopes: scopesFromClassic(d),
    defaultPolicies: list(d.jwt_default_policies),
    issuedAtValidationSkew: seconds(d.jwt_issued_at_validation_skew),
    notBeforeValidationSkew: seconds(d.jwt_not_before_validation_skew),
    expiresAtValidationSkew: seconds(d.jwt_expires_at_validation_skew),
    allowedIssuers: list(d.jwt_allowed_issuers),
    allowedAudiences: list(d.jwt_allowed_audiences),
    allowedSubjects: list(d.jwt_allowed_subjects),
    jtiValidation: d.jwt_require_jti === true ? { enabled: true } : undefined,
    idpClientIdMappingDisabled: d.idp_client_id_mapping_disabled === true || undefined,
  };
  for (const [field, value] of Object.entries(jwt))
    if (value !== undefined) (settings as Record<string, unknown>)[field] = value;
  return { scheme: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, settings };
}

function jwksFromClassic(value: unknown): JwtSchemeSettings['jwksURIs'] {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  return value.map((entry) => {
    const jwks = record(entry);
    const timeout = seconds(jwks.cache_timeout);
    return { url: String(jwks.url ?? ''), ...(timeout ? { cacheTimeout: durationText(timeout) } : {}) };
  });
}

/** `scopes.jwt`, or the fields it replaced (`jwt_scope_claim_name`, `jwt_scope_to_policy_mapping`) when it is empty. */
function scopesFromClassic(d: Classic): ScopeSettings | undefined {
  const current = record(record(d.scopes).jwt);
  const useCurrent =
    text(current.scope_claim_name) !== undefined || Object.keys(record(current.scope_to_policy)).length > 0;
  const claimName = text(useCurrent ? current.scope_claim_name : d.jwt_scope_claim_name);
  const mapping = record(useCurrent ? current.scope_to_policy : d.jwt_scope_to_policy_mapping);
  const scopes: ScopeSettings = {};
  if (claimName) scopes.claimName = claimName;
  const claims = list(current.claims);
  if (claims) scopes.claims = claims;
  const entries = Object.entries(mapping).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (entries.length > 0)
    scopes.scopeToPolicyMapping = entries.map(([scope, policyId]) => ({ scope, policyId: String(policyId) }));
  return Object.keys(scopes).length > 0 ? scopes : undefined;
}

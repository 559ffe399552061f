import { ApisErrors } from '../../errors';
import { base64Text, isHttpUrl } from '../token-auth-rules';
import { credentialConfig } from './credential-location';
import { durationSeconds } from './duration';
import type { SchemeSettings } from './gateway-extension';

type Classic = Record<string, unknown>;

/**
 * A JWT scheme's settings (the reference's OAS `JWT`) as the classic fields the gateway's JWT
 * step reads. The reference's OAS-only lists (subject claims, base policy claims, allowed
 * issuers, audiences and subjects, jti) become gw's `jwt_*` extensions; where a single classic
 * field and a list say the same thing, an empty single field takes the list's first entry, so
 * a step that reads only the single field still checks the claim named first.
 */
export function jwtSettings(settings: SchemeSettings, configs: Classic, at: string): Classic {
  const problem = keyProblem(settings);
  if (problem) throw ApisErrors.invalidOas([`${at}${problem}`]);
  configs.jwt = credentialConfig({ in: 'header', name: 'Authorization' }, settings);
  const subjectClaims = settings.subjectClaims ?? [];
  const basePolicyClaims = settings.basePolicyClaims ?? [];
  const scopes = settings.scopes ?? {};
  const scopeClaims = scopes.claims ?? [];
  const scopeClaim: Classic = {
    scope_claim_name: scopes.claimName || (scopeClaims[0] ?? ''),
    scope_to_policy: Object.fromEntries((scopes.scopeToPolicyMapping ?? []).map((m) => [m.scope, m.policyId])),
  };
  if (scopeClaims.length > 0) scopeClaim.claims = scopeClaims;
  return {
    enable_jwt: true,
    jwt_source: settings.source ?? '',
    jwt_jwks_uris: (settings.jwksURIs ?? []).map((jwks) => ({
      url: jwks.url,
      cache_timeout: cacheTimeoutSeconds(jwks.cacheTimeout),
    })),
    jwt_signing_method: settings.signingMethod ?? '',
    jwt_identity_base_field: settings.identityBaseField || (subjectClaims[0] ?? ''),
    jwt_subject_claims: subjectClaims,
    jwt_skip_kid: settings.skipKid === true,
    jwt_policy_field_name: settings.policyFieldName || (basePolicyClaims[0] ?? ''),
    jwt_base_policy_claims: basePolicyClaims,
    jwt_client_base_field: settings.clientBaseField ?? '',
    scopes: { jwt: scopeClaim },
    jwt_default_policies: settings.defaultPolicies ?? [],
    jwt_issued_at_validation_skew: settings.issuedAtValidationSkew ?? 0,
    jwt_not_before_validation_skew: settings.notBeforeValidationSkew ?? 0,
    jwt_expires_at_validation_skew: settings.expiresAtValidationSkew ?? 0,
    jwt_allowed_issuers: settings.allowedIssuers ?? [],
    jwt_allowed_audiences: settings.allowedAudiences ?? [],
    jwt_allowed_subjects: settings.allowedSubjects ?? [],
    jwt_require_jti: settings.jtiValidation?.enabled === true,
    idp_client_id_mapping_disabled: settings.idpClientIdMappingDisabled === true,
  };
}

/**
 * A source must be base64 or a JWKS URL, as the classic save rules ask; neither source nor
 * jwksURIs is the one-to-one mode (each token names the key whose `jwt_data.secret` checks it).
 */
function keyProblem(settings: SchemeSettings): string | undefined {
  const source = settings.source ?? '';
  if (source !== '' && !isHttpUrl(source) && base64Text(source) === undefined)
    return '/source: must be base64 (of a shared secret, a PEM public key or certificate, or a JWKS URL) or an http(s) JWKS URL';
  return undefined;
}

/** Seconds, from seconds or a duration (the extension schema admits only these two). */
function cacheTimeoutSeconds(value: number | string | undefined): number {
  if (typeof value === 'number') return value;
  return durationSeconds(value) ?? 0;
}

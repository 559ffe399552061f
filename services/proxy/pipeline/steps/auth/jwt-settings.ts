import { createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import type { ApiDefinition } from '../../../../../contracts/apis/api-definition';
import type { ClaimSkews } from '../../../../../lib/jwt/time-claims';
import { ALGORITHMS, type SigningMethod } from '../../../../../lib/jwt/verify-jwt';

/** Where the keys that verify an API's tokens come from. */
export type KeySource =
  | { kind: 'key'; key: Uint8Array | KeyObject }
  | { kind: 'key-sets'; sets: Array<{ url: string; ttlMs: number | undefined }> }
  /** no central source: the token names a key of the key store whose `jwt_data.secret` verifies it */
  | { kind: 'key-secrets'; method: SigningMethod };

/** How tokens map to sessions: identity, policies, scopes (shared by JWT and OpenID Connect). */
export interface ClaimMapping {
  /** claims tried in order for the identity; `sub` last */
  identityClaims: string[];
  /** claims tried in order for the base policy id */
  policyClaims: string[];
  /** a claim naming a key of the key store whose first policy is the base policy */
  clientBaseField: string | undefined;
  defaultPolicies: string[];
  scopeClaim: string;
  scopeToPolicy: Record<string, string>;
  /** put the token's OAuth client id (client_id, cid, clientId) on the session */
  clientIdMapping: boolean;
}

export interface JwtSettings extends ClaimMapping {
  algorithms: readonly string[];
  keys: KeySource;
  skews: ClaimSkews;
  skipKid: boolean;
  allowedIssuers: string[];
  allowedAudiences: string[];
  allowedSubjects: string[];
  requireJti: boolean;
}

const METHODS = Object.keys(ALGORITHMS) as SigningMethod[];
const HTTP_URL = /^https?:\/\//i;

/**
 * An API's JWT settings from its classic fields (the reference gateway's, plus gw's
 * `jwt_allowed_*` and `jwt_require_jti` carrying the reference's OAS-only checks). Throws when
 * they cannot verify anything, so the API is not served half-configured.
 */
export function readJwtSettings(definition: ApiDefinition): JwtSettings {
  const method = (definition.jwt_signing_method ?? '') === '' ? 'hmac' : definition.jwt_signing_method;
  if (!METHODS.includes(method as SigningMethod))
    throw new Error(`jwt_signing_method must be one of ${METHODS.join(', ')}, got ${JSON.stringify(method)}`);
  return {
    ...readClaimMapping(definition, 'jwt'),
    algorithms: ALGORITHMS[method as SigningMethod],
    keys: readKeySource(definition, method as SigningMethod),
    skews: {
      expiresAt: seconds(definition.jwt_expires_at_validation_skew),
      issuedAt: seconds(definition.jwt_issued_at_validation_skew),
      notBefore: seconds(definition.jwt_not_before_validation_skew),
    },
    skipKid: definition.jwt_skip_kid === true,
    allowedIssuers: strings(definition.jwt_allowed_issuers),
    allowedAudiences: strings(definition.jwt_allowed_audiences),
    allowedSubjects: strings(definition.jwt_allowed_subjects),
    requireJti: definition.jwt_require_jti === true,
  };
}

/** Identity, policy and scope settings; `scopes.jwt` or `scopes.oidc` win over the older `jwt_scope_*` fields. */
export function readClaimMapping(definition: ApiDefinition, kind: 'jwt' | 'oidc'): ClaimMapping {
  const scopes = (definition.scopes as Record<string, { scope_claim_name?: unknown; scope_to_policy?: unknown }>)?.[
    kind
  ];
  const useScopes = scopes !== undefined && (scopes.scope_claim_name || scopes.scope_to_policy);
  const scopeClaim = useScopes ? scopes.scope_claim_name : definition.jwt_scope_claim_name;
  const scopeToPolicy = useScopes ? scopes.scope_to_policy : definition.jwt_scope_to_policy_mapping;
  const identity = strings(definition.jwt_subject_claims);
  const policies = strings(definition.jwt_base_policy_claims);
  return {
    identityClaims: [...(identity.length > 0 ? identity : strings([definition.jwt_identity_base_field])), 'sub'],
    policyClaims: policies.length > 0 ? policies : strings([definition.jwt_policy_field_name]),
    clientBaseField: strings([definition.jwt_client_base_field])[0],
    defaultPolicies: strings(definition.jwt_default_policies),
    scopeClaim: typeof scopeClaim === 'string' && scopeClaim !== '' ? scopeClaim : 'scope',
    scopeToPolicy: stringRecord(scopeToPolicy),
    clientIdMapping: definition.idp_client_id_mapping_disabled !== true,
  };
}

/**
 * `jwt_jwks_uris` when set; otherwise `jwt_source`: a URL (plain, or base64 as the reference
 * stores it) of a key set, else base64 of the HMAC secret or of a PEM public key or certificate.
 * Neither: the reference's one-to-one mode, each token verified with its own key's secret.
 */
function readKeySource(definition: ApiDefinition, method: SigningMethod): KeySource {
  const listed = Array.isArray(definition.jwt_jwks_uris) ? (definition.jwt_jwks_uris as unknown[]) : [];
  if (listed.length > 0) {
    return {
      kind: 'key-sets',
      sets: listed.map((entry, index) => {
        const { url, cache_timeout } = (entry ?? {}) as { url?: unknown; cache_timeout?: unknown };
        if (typeof url !== 'string' || !HTTP_URL.test(url))
          throw new Error(`jwt_jwks_uris[${index}].url must be an http(s) URL`);
        return { url, ttlMs: Number(cache_timeout) > 0 ? Number(cache_timeout) * 1000 : undefined };
      }),
    };
  }
  const source = typeof definition.jwt_source === 'string' ? definition.jwt_source.trim() : '';
  if (source === '') return { kind: 'key-secrets', method };
  if (HTTP_URL.test(source)) return { kind: 'key-sets', sets: [{ url: source, ttlMs: undefined }] };
  const decoded = strictBase64(source);
  if (decoded === undefined) throw new Error('jwt_source must be base64 (of a secret, a PEM public key or a URL)');
  const text = decoded.toString('utf8');
  if (HTTP_URL.test(text)) return { kind: 'key-sets', sets: [{ url: text, ttlMs: undefined }] };
  if (method === 'hmac') {
    if (decoded.length === 0) throw new Error('jwt_source holds an empty HMAC secret');
    return { kind: 'key', key: new Uint8Array(decoded) };
  }
  return { kind: 'key', key: publicKeyOf(text) };
}

/**
 * The key a key's `jwt_data.secret` holds, as the reference reads it: the secret's own bytes
 * for HMAC, a PEM public key or certificate otherwise. Throws when it is not such a PEM.
 */
export function keyOfSecret(secret: string, method: SigningMethod): Uint8Array | KeyObject {
  return method === 'hmac' ? new TextEncoder().encode(secret) : publicKeyOf(secret, 'jwt_data.secret');
}

/** A PEM public key, or the key of a PEM certificate (the reference accepts both). */
function publicKeyOf(pem: string, field = 'jwt_source'): KeyObject {
  try {
    if (pem.includes('BEGIN CERTIFICATE')) return new X509Certificate(pem).publicKey;
    const key = createPublicKey(pem);
    return key;
  } catch {
    throw new Error(`${field} is neither a PEM public key nor a PEM certificate`);
  }
}

function strictBase64(text: string): Buffer | undefined {
  const compact = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact)) return undefined;
  return Buffer.from(compact, compact.includes('-') || compact.includes('_') ? 'base64url' : 'base64');
}

function seconds(value: unknown): number {
  const number = Number(value ?? 0);
  return Number.isFinite(number) && number > 0 ? number : 0;
}

function strings(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((entry): entry is string => typeof entry === 'string' && entry !== '')
    : [];
}

function stringRecord(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '',
    ),
  );
}

import { hash } from 'node:crypto';
import { claimValue, scopesOf, stringClaim } from '../../../../../lib/jwt/claims';
import { refusal, type JwtRefusal } from '../../../../../lib/jwt/verify-jwt';
import type { ClaimMapping } from './jwt-settings';

export const NO_MATCHING_POLICY = 'key not authorized: no matching policy found';

export const NO_IDENTITY = 'no suitable claims for user ID were found';

/**
 * The token's identity: the first configured claim holding a non-empty string, else `sub` (the
 * last of `identityClaims`). A claim that is there but empty is refused rather than skipped, as
 * the reference gateway does: the identity provider meant that claim, and the next one would
 * name someone else.
 */
export function identityOf(claims: Record<string, unknown>, mapping: ClaimMapping): string | JwtRefusal {
  const names = mapping.identityClaims;
  for (const [index, name] of names.entries()) {
    const value = stringClaim(claims, name);
    if (value !== undefined) return value;
    if (claimValue(claims, name) !== '') continue;
    const isSubFallback = index === names.length - 1 && names.indexOf(name) === index;
    const message = isSubFallback
      ? 'found an empty user ID in sub claim'
      : `found an empty user ID in predefined base claim, claim: ${name}`;
    return refusal(403, message, `empty identity claim ${name}`);
  }
  return refusal(403, NO_IDENTITY, 'no identity claim');
}

/** The base policy a claim names (`jwt_policy_field_name`, `basePolicyClaims`), if any. */
export function policyClaimOf(claims: Record<string, unknown>, mapping: ClaimMapping): string | undefined {
  for (const name of mapping.policyClaims) {
    const value = stringClaim(claims, name);
    if (value !== undefined) return value;
  }
  return undefined;
}

/**
 * The policies a verified token's session gets, as the reference gateway chooses them: the base
 * policy (from a claim, or the policy of the key `jwt_client_base_field` names), else the
 * default policies; then, when the API maps scopes to policies and the token has scopes, the
 * base policy (not the defaults) plus every mapped scope's policy. No policy at all is a 403.
 */
export function policiesOf(
  claims: Record<string, unknown>,
  mapping: ClaimMapping,
  basePolicy: string | undefined,
): string[] | JwtRefusal {
  const fromDefaults = basePolicy === undefined && mapping.defaultPolicies.length > 0;
  let policies = basePolicy !== undefined ? [basePolicy] : fromDefaults ? [...mapping.defaultPolicies] : [];
  if (Object.keys(mapping.scopeToPolicy).length > 0) {
    const scopes = scopesOf(claims, mapping.scopeClaim);
    if (scopes.length > 0) {
      const mapped = scopes.map((scope) => mapping.scopeToPolicy[scope]).filter((id) => id !== undefined);
      policies = [...new Set([...(fromDefaults || basePolicy === undefined ? [] : [basePolicy]), ...mapped])];
      if (policies.length === 0)
        return refusal(403, `${NO_MATCHING_POLICY} in scope claim`, 'no policy for the token scopes');
    }
  }
  if (policies.length === 0) return refusal(403, NO_MATCHING_POLICY, 'no policy for the token');
  return policies;
}

/**
 * The name a token's session is counted under on every node: the organisation and an MD5 of the
 * identity, as the reference gateway names the sessions it creates for tokens (not a secret: a
 * token is needed to use it).
 */
export function sessionKeyId(orgId: string, ...parts: string[]): string {
  return orgId + parts.map((part) => hash('md5', part, 'hex')).join('');
}

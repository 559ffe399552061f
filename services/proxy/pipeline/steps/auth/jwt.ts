import type { CompactVerifyGetKey } from 'jose';
import type { ApiDefinition } from '../../../../../contracts/apis/api-definition';
import { audiencesOf, clientIdOf, stringClaim } from '../../../../../lib/jwt/claims';
import { NoMatchingKey } from '../../../../../lib/jwt/key-sets';
import { checkTimeClaims } from '../../../../../lib/jwt/time-claims';
import { isRefusal, refusal, verifyJwt, type JwtRefusal } from '../../../../../lib/jwt/verify-jwt';
import type { DONE } from '../../compose';
import {
  bearerTokenLocations,
  findCredential,
  type CredentialLocations,
  type FoundCredential,
} from '../../credentials';
import { GatewayMessages } from '../../gateway-errors';
import { refuse } from '../../refuse';
import type { RequestContext } from '../../request-context';
import { keySecretVerifier } from './jwt-key-secrets';
import { readJwtSettings, type JwtSettings } from './jwt-settings';
import { checkCredential, type Authenticator, type AuthStepDeps } from './key-check';
import { admitToken, refuseToken } from './token-admission';
import { withoutBearer } from './token';
import { identityOf, policiesOf, policyClaimOf, sessionKeyId } from './token-session';
import { VerifiedTokens, type VerifiedToken } from './verified-tokens';

type Outcome = typeof DONE | void | Promise<typeof DONE | void>;

/**
 * JSON Web Tokens (`enable_jwt`), as the reference gateway checks them with a central source
 * (`jwt_source` or `jwt_jwks_uris`; without one, each token names the key whose secret verifies
 * it: jwt-key-secrets.ts): the token's algorithm must be one of the signing method's,
 * its signature must verify with the configured secret, public key or key set (its `kid`),
 * its time claims must hold with the API's skews, and the gw checks of issuer, audience, subject
 * and `jti` when configured. Its session is what its policies give (token-session.ts), counted
 * under a name derived from its identity, so limits and quotas apply per identity on every node.
 * A token that passed is remembered (verified-tokens.ts): the common case costs a hash.
 */
export function jwtAuthenticator(definition: ApiDefinition, deps: AuthStepDeps): Authenticator {
  const settings = readJwtSettings(definition);
  const where = bearerTokenLocations(definition, 'jwt');
  const strip = definition.strip_auth_data === true;
  const verified = new VerifiedTokens();
  const { keySets } = deps.identityProviders;
  const stripped = (found: FoundCredential): [CredentialLocations, FoundCredential] | undefined =>
    strip ? [where, found] : undefined;
  const missing = (ctx: RequestContext): typeof DONE => {
    deps.emitEvent('AuthFailure', ctx, 'Attempted access with no JWT');
    return refuse(ctx, 401, GatewayMessages.authFieldMissing);
  };
  if (settings.keys.kind === 'key-secrets') {
    const verifyWithKeySecret = keySecretVerifier(settings, deps, checkExtraClaims);
    return {
      mode: 'jwt_claim',
      step: (ctx): Outcome => {
        if (ctx.endpoint.kind === 'ignored') return;
        const found = findCredential(ctx, where);
        return found ? verifyWithKeySecret(ctx, withoutBearer(found.value), stripped(found)) : missing(ctx);
      },
    };
  }
  const getKey = keyResolver(definition.api_id, settings, deps);

  const verify = async (ctx: RequestContext, token: string, found: FoundCredential): Promise<typeof DONE | void> => {
    const generation = keySets.generation;
    const outcome = await verifyJwt(token, settings.algorithms, getKey);
    if (isRefusal(outcome)) return refuseToken(ctx, deps, outcome);
    const { header, claims } = outcome;
    const invalid =
      checkTimeClaims(claims, settings.skews, Math.floor(Date.now() / 1000)) ??
      checkExtraClaims(claims, header, settings);
    if (invalid) return refuseToken(ctx, deps, invalid);
    const identity = identityOf(claims, settings);
    if (typeof identity !== 'string') return refuseToken(ctx, deps, identity);
    const basePolicy = await basePolicyOf(claims, settings, deps);
    if (basePolicy instanceof Error) return refuse(ctx, 503, GatewayMessages.keyStoreUnavailable);
    const policies = policiesOf(claims, settings, basePolicy);
    if (!Array.isArray(policies)) return refuseToken(ctx, deps, policies);
    const clientId = settings.clientIdMapping ? clientIdOf(claims) : undefined;
    const entry: VerifiedToken = {
      check: {
        kind: 'policies',
        org_id: definition.org_id,
        key_id: sessionKeyId(definition.org_id, identity),
        policy_ids: policies,
        alias: identity,
        ...(clientId !== undefined ? { client_id: clientId } : {}),
      },
      claims: { ...header, ...claims },
      generation,
    };
    const exp = typeof claims.exp === 'number' ? claims.exp + settings.skews.expiresAt : undefined;
    verified.remember(token, entry, exp);
    return admitToken(ctx, deps, entry, stripped(found));
  };

  return {
    mode: 'jwt_claim',
    step: (ctx): Outcome => {
      if (ctx.endpoint.kind === 'ignored') return;
      const found = findCredential(ctx, where);
      if (!found) return missing(ctx);
      const token = withoutBearer(found.value);
      const known = verified.get(token, keySets.generation);
      return known ? admitToken(ctx, deps, known, stripped(found)) : verify(ctx, token, found);
    },
  };
}

/** The configured key, or the key of the configured key sets the token's header names. */
function keyResolver(apiId: string, settings: JwtSettings, deps: AuthStepDeps): CompactVerifyGetKey {
  const source = settings.keys;
  if (source.kind === 'key') return () => source.key;
  if (source.kind === 'key-secrets') throw new Error('the key store mode resolves keys per token');
  return async (header, token) => {
    let lastError: unknown;
    for (const set of source.sets) {
      try {
        return await deps.identityProviders.keySets.key(apiId, set.url, set.ttlMs, header, token);
      } catch (err) {
        lastError = err;
        if (!(err instanceof NoMatchingKey)) deps.logger.warn(`JWKS ${set.url}: ${(err as Error).message}`);
      }
    }
    throw lastError;
  };
}

/** The reference's OAS-only checks (issuer, audience, subject, jti), gw's `jwt_allowed_*` fields. */
function checkExtraClaims(
  claims: Record<string, unknown>,
  header: Record<string, unknown>,
  settings: JwtSettings,
): JwtRefusal | undefined {
  if (settings.allowedIssuers.length > 0) {
    const issuer = claims.iss;
    if (issuer === undefined) return unauthorised('issuer claim is required but not present in token');
    if (typeof issuer !== 'string') return unauthorised('issuer claim must be a string');
    if (!settings.allowedIssuers.includes(issuer)) return unauthorised(`invalid issuer claim: ${issuer}`);
  }
  if (settings.allowedAudiences.length > 0) {
    if (claims.aud === undefined) return unauthorised('audience claim is required but not present in token');
    if (typeof claims.aud !== 'string' && !Array.isArray(claims.aud))
      return unauthorised('invalid audience claim format');
    const audiences = audiencesOf(claims);
    if (!audiences.some((audience) => settings.allowedAudiences.includes(audience)))
      return unauthorised(`no matching audience found in token: [${audiences.join(' ')}]`);
  }
  if (settings.requireJti && claims.jti === undefined)
    return unauthorised('JWT ID (jti) claim is required but not present in token');
  if (settings.allowedSubjects.length > 0) {
    // the reference's subject: the kid header unless jwt_skip_kid, else the identity claims
    const kid = !settings.skipKid && typeof header.kid === 'string' ? header.kid : undefined;
    const identity = identityOf(claims, settings);
    const subject = kid ?? (typeof identity === 'string' ? identity : undefined);
    if (subject === undefined || !settings.allowedSubjects.includes(subject))
      return unauthorised(`invalid subject value: ${subject ?? ''}`);
  }
  return undefined;
}

function unauthorised(reason: string): JwtRefusal {
  return refusal(401, `Key not authorized: ${reason}`, reason);
}

/**
 * The base policy: with `jwt_policy_field_name` (or `jwt_base_policy_claims`) only the claim's,
 * as in the reference gateway (a client key is then never consulted); otherwise the policy of
 * the key `jwt_client_base_field` names.
 */
async function basePolicyOf(
  claims: Record<string, unknown>,
  settings: JwtSettings,
  deps: AuthStepDeps,
): Promise<string | undefined | Error> {
  if (settings.policyClaims.length > 0) return policyClaimOf(claims, settings);
  return clientKeyPolicy(claims, settings, deps);
}

/**
 * `jwt_client_base_field`: the claim names a key of the key store (an OAuth client's, say) whose
 * first policy becomes the token's base policy. Undefined when there is no such claim or key.
 */
async function clientKeyPolicy(
  claims: Record<string, unknown>,
  settings: JwtSettings,
  deps: AuthStepDeps,
): Promise<string | undefined | Error> {
  if (settings.clientBaseField === undefined) return undefined;
  const clientKey = stringClaim(claims, settings.clientBaseField);
  if (clientKey === undefined) return undefined;
  const result = await checkCredential(deps, { kind: 'token', key: clientKey });
  if (result instanceof Error) return result;
  return result.ok ? result.session.apply_policies?.[0] : undefined;
}

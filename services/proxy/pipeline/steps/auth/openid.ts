import { decodeJwt } from 'jose';
import type { ApiDefinition } from '../../../../../contracts/apis/api-definition';
import { audiencesOf, scopesOf, stringClaim } from '../../../../../lib/jwt/claims';
import { checkTimeClaims } from '../../../../../lib/jwt/time-claims';
import { ALGORITHMS, isRefusal, refusal, verifyJwt, type JwtRefusal } from '../../../../../lib/jwt/verify-jwt';
import type { DONE } from '../../compose';
import {
  bearerTokenLocations,
  findCredential,
  type CredentialLocations,
  type FoundCredential,
} from '../../credentials';
import { refuse } from '../../refuse';
import type { RequestContext } from '../../request-context';
import { readClaimMapping } from './jwt-settings';
import type { Authenticator, AuthStepDeps } from './key-check';
import { admitToken, NO_MATCHING_POLICY_MESSAGE, refuseToken } from './token-admission';
import { withoutBearer } from './token';
import { sessionKeyId } from './token-session';
import { VerifiedTokens, type VerifiedToken } from './verified-tokens';

/** The reference gateway's answer to every OpenID Connect token it cannot accept. */
const NOT_AUTHORISED = 'Key not authorised';
/** Identity providers sign ID tokens with their published asymmetric keys. */
const PROVIDER_ALGORITHMS = [...ALGORITHMS.rsa, ...ALGORITHMS.ecdsa, ...ALGORITHMS.eddsa];

interface Provider {
  issuer: string;
  /** client id (decoded from the base64 key the reference stores) → policy id */
  clients: Map<string, string>;
}

/**
 * OpenID Connect (`use_openid`, `openid_options`): a token of one of the API's providers,
 * verified with the keys its discovery document publishes. Its audience (or, gw's addition for
 * access tokens, its `azp` or `client_id`) picks the client, and the client's policy becomes the
 * session's, unless the API maps scopes to policies (`scopes.oidc`): then the scopes pick them,
 * but the client must still be one the API lists. The session is named after
 * the subject, and the client too with `segregate_by_client`.
 */
export function openIdAuthenticator(definition: ApiDefinition, deps: AuthStepDeps): Authenticator {
  const providers = readProviders(definition);
  const mapping = readClaimMapping(definition, 'oidc');
  const useScopes = Object.keys(mapping.scopeToPolicy).length > 0;
  const segregate = (definition.openid_options as { segregate_by_client?: unknown })?.segregate_by_client === true;
  const where = bearerTokenLocations(definition, 'oidc');
  const strip = definition.strip_auth_data === true;
  const verified = new VerifiedTokens();
  const { keySets, discovery } = deps.identityProviders;
  const stripped = (found: FoundCredential): [CredentialLocations, FoundCredential] | undefined =>
    strip ? [where, found] : undefined;

  const verify = async (ctx: RequestContext, token: string, found: FoundCredential): Promise<typeof DONE | void> => {
    const generation = keySets.generation;
    const provider = providerOf(token, providers);
    if (!provider) return refuseToken(ctx, deps, notAuthorised('no provider of this API issued the token'));
    let jwksUri: string;
    try {
      jwksUri = await discovery.jwksUri(provider.issuer);
    } catch (err) {
      deps.logger.warn(`OpenID Connect provider ${provider.issuer}: ${(err as Error).message}`);
      return refuseToken(ctx, deps, notAuthorised('the provider could not be reached'));
    }
    const outcome = await verifyJwt(token, PROVIDER_ALGORITHMS, (header, jws) =>
      keySets.key(definition.api_id, jwksUri, undefined, header, jws),
    );
    if (isRefusal(outcome)) return refuseToken(ctx, deps, { ...outcome, status: 401, message: NOT_AUTHORISED });
    const { claims } = outcome;
    if (claims.iss !== provider.issuer) return refuseToken(ctx, deps, notAuthorised('issuer mismatch'));
    if (typeof claims.exp !== 'number') return refuseToken(ctx, deps, notAuthorised('no exp claim'));
    const late = checkTimeClaims(claims, { expiresAt: 0, issuedAt: 0, notBefore: 0 }, Math.floor(Date.now() / 1000));
    if (late) return refuseToken(ctx, deps, { ...late, message: NOT_AUTHORISED });
    const subject = stringClaim(claims, 'sub');
    if (subject === undefined) return refuseToken(ctx, deps, notAuthorised('no sub claim'));
    // the listed clients are the API's allowlist, with or without a scope mapping (the reference
    // refuses a token whose audience names none of the provider's clients before it maps scopes)
    const client = clientOf(claims, provider);
    if (!client) return refuseToken(ctx, deps, notAuthorised('no client of this API in the audience'));
    const [clientId, clientPolicy] = client;
    const policies = useScopes ? scopePolicies(claims, mapping.scopeClaim, mapping.scopeToPolicy) : [clientPolicy];
    if (policies.length === 0)
      return refuseToken(ctx, deps, refusal(403, NO_MATCHING_POLICY_MESSAGE, 'no policy for the token scopes'));
    const entry: VerifiedToken = {
      check: {
        kind: 'policies',
        org_id: definition.org_id,
        key_id: segregate
          ? sessionKeyId(definition.org_id, clientId, subject)
          : sessionKeyId(definition.org_id, subject),
        policy_ids: policies,
        alias: `${clientId}:${subject}`,
        client_id: clientId,
      },
      claims: { ...outcome.header, ...claims },
      generation,
    };
    verified.remember(token, entry, claims.exp);
    return admitToken(ctx, deps, entry, stripped(found));
  };

  return {
    mode: 'oidc_user',
    step: (ctx) => {
      if (ctx.endpoint.kind === 'ignored') return;
      const found = findCredential(ctx, where);
      if (!found) {
        deps.emitEvent('AuthFailure', ctx, 'Attempted access with no OpenID Connect token');
        // the reference's OpenID Connect answers a missing token as any other it cannot accept
        return refuse(ctx, 401, NOT_AUTHORISED);
      }
      const token = withoutBearer(found.value);
      const known = verified.get(token, keySets.generation);
      return known ? admitToken(ctx, deps, known, stripped(found)) : verify(ctx, token, found);
    },
  };
}

/** `openid_options.providers`, client ids decoded; throws on a provider without an issuer. */
function readProviders(definition: ApiDefinition): Provider[] {
  const options = (definition.openid_options ?? {}) as { providers?: unknown };
  const listed = Array.isArray(options.providers) ? (options.providers as unknown[]) : [];
  if (listed.length === 0) throw new Error('use_openid needs at least one provider in openid_options.providers');
  return listed.map((entry, index) => {
    const { issuer, client_ids } = (entry ?? {}) as { issuer?: unknown; client_ids?: unknown };
    if (typeof issuer !== 'string' || !/^https?:\/\//.test(issuer))
      throw new Error(`openid_options.providers[${index}].issuer must be an http(s) URL`);
    const clients = new Map<string, string>();
    for (const [encoded, policy] of Object.entries((client_ids ?? {}) as Record<string, unknown>))
      if (typeof policy === 'string') clients.set(Buffer.from(encoded, 'base64').toString('utf8'), policy);
    return { issuer, clients };
  });
}

/** The provider the token says issued it (checked again once its signature is verified). */
function providerOf(token: string, providers: Provider[]): Provider | undefined {
  let issuer: unknown;
  try {
    issuer = decodeJwt(token).iss;
  } catch {
    return undefined;
  }
  return providers.find((provider) => provider.issuer === issuer);
}

/** The first audience that is a client of the provider; else `azp` or `client_id` (access tokens). */
function clientOf(claims: Record<string, unknown>, provider: Provider): [string, string] | undefined {
  for (const candidate of [...audiencesOf(claims), stringClaim(claims, 'azp'), stringClaim(claims, 'client_id')]) {
    if (candidate === undefined) continue;
    const policy = provider.clients.get(candidate);
    if (policy !== undefined) return [candidate, policy];
  }
  return undefined;
}

function scopePolicies(claims: Record<string, unknown>, scopeClaim: string, map: Record<string, string>): string[] {
  return [
    ...new Set(
      scopesOf(claims, scopeClaim)
        .map((scope) => map[scope])
        .filter((id) => id !== undefined),
    ),
  ];
}

function notAuthorised(reason: string): JwtRefusal {
  return refusal(401, NOT_AUTHORISED, reason);
}

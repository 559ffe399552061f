import type { CompactVerifyGetKey, JWSHeaderParameters } from 'jose';
import type { AuthCheckResult } from '../../../../../contracts/auth/actions';
import { checkTimeClaims } from '../../../../../lib/jwt/time-claims';
import { isRefusal, verifyJwt, type JwtRefusal } from '../../../../../lib/jwt/verify-jwt';
import type { DONE } from '../../compose';
import { stripCredential, type CredentialLocations, type FoundCredential } from '../../credentials';
import { GatewayMessages } from '../../gateway-errors';
import { refuse } from '../../refuse';
import type { RequestContext } from '../../request-context';
import { keyOfSecret, type JwtSettings, type KeySource } from './jwt-settings';
import { checkCredential, type AuthStepDeps } from './key-check';
import { refuseToken } from './token-admission';
import { identityOf } from './token-session';
import { VerifiedTokens } from './verified-tokens';

type Outcome = typeof DONE | void | Promise<typeof DONE | void>;
type Strip = [CredentialLocations, FoundCredential] | undefined;
type KeyLookup = AuthCheckResult | Error;

/** A token that verified with its key's secret: which key, with which secret, and its claims. */
interface KeySecretToken {
  keyName: string;
  secret: string;
  claims: Record<string, unknown>;
  generation: number;
}

/** The checks every JWT mode makes after the signature and time claims (issuer, audience, …). */
export type ClaimChecks = (
  claims: Record<string, unknown>,
  header: Record<string, unknown>,
  settings: JwtSettings,
) => JwtRefusal | undefined;

/**
 * The reference gateway's one-to-one mode (`enable_jwt` with neither `jwt_source` nor
 * `jwt_jwks_uris`): the token's `kid` (or, with `jwt_skip_kid`, its identity claims, then
 * `sub`) names a key of the key store, whose `jwt_data.secret` (an HMAC secret, or a PEM public
 * key) must verify it. The request then carries that key's session, as if it had sent the key.
 *
 * The key is looked up on every request (synchronous while the auth service has it cached, and
 * dropped from there on every key change), so a deleted key or a changed secret stops its
 * tokens at once; only the signature check is skipped for a token already verified with the
 * very secret the key holds now.
 */
export function keySecretVerifier(
  settings: JwtSettings,
  deps: AuthStepDeps,
  checkClaims: ClaimChecks,
): (ctx: RequestContext, token: string, strip: Strip) => Outcome {
  const source = settings.keys as Extract<KeySource, { kind: 'key-secrets' }>;
  const verified = new VerifiedTokens<KeySecretToken>();

  const admit = (
    ctx: RequestContext,
    lookup: AuthCheckResult & { ok: true },
    claims: Record<string, unknown>,
    strip: Strip,
  ) => {
    ctx.session = lookup.session;
    ctx.keyHash = lookup.key_hash;
    ctx.jwtClaims = claims;
    if (strip) stripCredential(ctx, strip[0], strip[1]);
  };

  const verify = async (ctx: RequestContext, token: string, strip: Strip): Promise<typeof DONE | void> => {
    let lookup: { keyName: string; result: KeyLookup } | undefined;
    const getKey: CompactVerifyGetKey = async (header, jws) => {
      const keyName = keyNameOf(header, jws.payload, settings);
      if (keyName === undefined) throw new Error('no suitable claims for user ID were found');
      const result = await checkCredential(deps, { kind: 'token', key: keyName });
      lookup = { keyName, result };
      if (result instanceof Error || !result.ok) throw new Error('token invalid, key not found');
      const secret = secretOf(result);
      if (secret === undefined) throw new Error('token invalid, the key has no jwt_data.secret');
      try {
        return keyOfSecret(secret, source.method);
      } catch {
        throw new Error("token invalid, the key's jwt_data.secret is not a PEM public key");
      }
    };
    const outcome = await verifyJwt(token, settings.algorithms, getKey);
    if (lookup?.result instanceof Error) return refuse(ctx, 503, GatewayMessages.keyStoreUnavailable);
    if (isRefusal(outcome)) return refuseToken(ctx, deps, outcome);
    const { header, claims } = outcome;
    const invalid =
      checkTimeClaims(claims, settings.skews, Math.floor(Date.now() / 1000)) ?? checkClaims(claims, header, settings);
    if (invalid) return refuseToken(ctx, deps, invalid);
    // verifyJwt asked for the key, so the lookup found it with a secret
    const found = lookup!.result as AuthCheckResult & { ok: true };
    const all = { ...header, ...claims };
    const exp = typeof claims.exp === 'number' ? claims.exp + settings.skews.expiresAt : undefined;
    verified.remember(token, { keyName: lookup!.keyName, secret: secretOf(found)!, claims: all, generation: 0 }, exp);
    admit(ctx, found, all, strip);
  };

  return (ctx, token, strip) => {
    const known = verified.get(token, 0);
    if (!known) return verify(ctx, token, strip);
    const result = checkCredential(deps, { kind: 'token', key: known.keyName });
    const settle = (settled: KeyLookup): typeof DONE | void | Promise<typeof DONE | void> => {
      if (settled instanceof Error) return refuse(ctx, 503, GatewayMessages.keyStoreUnavailable);
      // the key is gone or its secret changed: verify again (and be refused, most likely)
      if (!settled.ok || secretOf(settled) !== known.secret) return verify(ctx, token, strip);
      admit(ctx, settled, known.claims, strip);
    };
    return result instanceof Promise ? result.then(settle) : settle(result);
  };
}

/** The key a token names: its `kid` unless `jwt_skip_kid`, else its identity claims, then `sub`. */
function keyNameOf(
  header: JWSHeaderParameters,
  payload: string | Uint8Array,
  settings: JwtSettings,
): string | undefined {
  if (!settings.skipKid && typeof header.kid === 'string' && header.kid !== '') return header.kid;
  // the claims are not verified yet: they only say which key to verify them with
  let claims: unknown;
  try {
    const encoded = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
    claims = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) return undefined;
  const identity = identityOf(claims as Record<string, unknown>, settings);
  return typeof identity === 'string' ? identity : undefined;
}

function secretOf(result: AuthCheckResult & { ok: true }): string | undefined {
  const secret = (result.session.jwt_data as { secret?: unknown } | undefined)?.secret;
  return typeof secret === 'string' && secret !== '' ? secret : undefined;
}

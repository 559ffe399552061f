import type { AuthCheckResult } from '../../../../../contracts/auth/actions';
import type { JwtRefusal } from '../../../../../lib/jwt/verify-jwt';
import type { DONE } from '../../compose';
import { stripCredential, type CredentialLocations, type FoundCredential } from '../../credentials';
import { GatewayMessages } from '../../gateway-errors';
import { refuse } from '../../refuse';
import type { RequestContext } from '../../request-context';
import { checkCredential, type AuthStepDeps } from './key-check';
import type { VerifiedToken } from './verified-tokens';

export const NO_MATCHING_POLICY_MESSAGE = 'Key not authorized: no matching policy';

/**
 * Gives a request the session of a verified token (JWT or OpenID Connect): asked of the auth
 * service, which derives it from the token's policies once and then answers from memory
 * (synchronously, so a known token takes no promise). 503 when the key store cannot be asked,
 * 403 when the token's policies do not exist in the API's organisation.
 */
export function admitToken(
  ctx: RequestContext,
  deps: AuthStepDeps,
  verified: VerifiedToken,
  strip: [CredentialLocations, FoundCredential] | undefined,
): typeof DONE | void | Promise<typeof DONE | void> {
  const result = checkCredential(deps, verified.check);
  return result instanceof Promise
    ? result.then((settled) => settle(ctx, deps, verified, settled, strip))
    : settle(ctx, deps, verified, result, strip);
}

function settle(
  ctx: RequestContext,
  deps: AuthStepDeps,
  verified: VerifiedToken,
  result: AuthCheckResult | Error,
  strip: [CredentialLocations, FoundCredential] | undefined,
): typeof DONE | void {
  if (result instanceof Error) return refuse(ctx, 503, GatewayMessages.keyStoreUnavailable);
  if (!result.ok) {
    deps.emitEvent(
      'AuthFailure',
      ctx,
      `Token of ${verified.check.alias}: its policies (${verified.check.policy_ids.join(', ')}) do not exist in this organisation`,
    );
    return refuse(ctx, 403, NO_MATCHING_POLICY_MESSAGE);
  }
  ctx.session = result.session;
  ctx.keyHash = result.key_hash;
  ctx.jwtClaims = verified.claims;
  if (strip) stripCredential(ctx, strip[0], strip[1]);
}

/** A token refused before any session: the AuthFailure event says why (never the token). */
export function refuseToken(ctx: RequestContext, deps: AuthStepDeps, refused: JwtRefusal): typeof DONE {
  deps.emitEvent('AuthFailure', ctx, `Attempted access with an invalid token: ${refused.reason}`);
  return refuse(ctx, refused.status, refused.message);
}

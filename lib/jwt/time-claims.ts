import { refusal, type JwtRefusal } from './verify-jwt';

/** Seconds of clock difference tolerated per claim (`jwt_*_validation_skew`). */
export interface ClaimSkews {
  expiresAt: number;
  issuedAt: number;
  notBefore: number;
}

/**
 * `exp`, `iat` and `nbf`, each optional as in the reference gateway, each with its own skew:
 * expired tokens, tokens issued in the future and tokens not valid yet are 401s with the
 * reference's messages. A time claim that is present but not a number is refused too.
 */
export function checkTimeClaims(
  claims: Record<string, unknown>,
  skews: ClaimSkews,
  nowSeconds: number,
): JwtRefusal | undefined {
  const { exp, iat, nbf } = claims;
  if (!optionalNumber(exp) || !optionalNumber(iat) || !optionalNumber(nbf))
    return refusal(401, 'Key not authorized: a time claim is not a number', 'time claim not a number');
  if (typeof exp === 'number' && nowSeconds - skews.expiresAt >= exp)
    return refusal(401, 'Key not authorized: token has expired', 'token has expired');
  if (typeof iat === 'number' && nowSeconds + skews.issuedAt < iat)
    return refusal(401, 'Key not authorized: token used before issued', 'token used before issued');
  if (typeof nbf === 'number' && nowSeconds + skews.notBefore < nbf)
    return refusal(401, 'Key not authorized: token is not valid yet', 'token is not valid yet');
  return undefined;
}

function optionalNumber(value: unknown): boolean {
  return value === undefined || (typeof value === 'number' && Number.isFinite(value));
}

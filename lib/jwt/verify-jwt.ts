import { compactVerify, decodeProtectedHeader, type CompactVerifyGetKey, type JWSHeaderParameters } from 'jose';

/** The reference gateway's `jwt_signing_method`, with `eddsa` added for Ed25519 keys. */
export type SigningMethod = 'hmac' | 'rsa' | 'ecdsa' | 'eddsa';

/** The JWS algorithms each signing method accepts; `none` is never one of them. */
export const ALGORITHMS: Record<SigningMethod, readonly string[]> = {
  hmac: ['HS256', 'HS384', 'HS512'],
  rsa: ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'],
  ecdsa: ['ES256', 'ES384', 'ES512'],
  eddsa: ['EdDSA', 'Ed25519'],
};

/**
 * A token longer than this is refused before it is decoded: real tokens are well under 4 KiB,
 * and decoding and verifying costs grow with the length.
 */
export const MAX_TOKEN_LENGTH = 8192;

export interface VerifiedJwt {
  header: JWSHeaderParameters;
  claims: Record<string, unknown>;
}

/** Why a token was refused: the status and message the client gets, and a reason for logs and events. */
export interface JwtRefusal {
  status: 401 | 403;
  message: string;
  reason: string;
}

export const NOT_AUTHORIZED = 'Key not authorized';
export const UNEXPECTED_SIGNING_METHOD = 'Key not authorized: Unexpected signing method';

/**
 * Verifies a compact JWS: its algorithm must be one of `algorithms` (so `alg: none`, and an
 * HMAC token offered where an asymmetric key is configured, are refused before any key is
 * used), its signature must verify with the key `getKey` picks, and its payload must be a JSON
 * object. The time claims are checked apart (time-claims.ts), with the API's own skews.
 */
export async function verifyJwt(
  token: string,
  algorithms: readonly string[],
  getKey: CompactVerifyGetKey,
): Promise<VerifiedJwt | JwtRefusal> {
  if (token.length > MAX_TOKEN_LENGTH) return refusal(403, NOT_AUTHORIZED, 'token too long');
  let header: JWSHeaderParameters;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    return refusal(403, NOT_AUTHORIZED, 'malformed token');
  }
  if (typeof header.alg !== 'string' || !algorithms.includes(header.alg))
    return refusal(403, UNEXPECTED_SIGNING_METHOD, `unexpected signing method ${String(header.alg)}`);
  let payload: Uint8Array;
  try {
    ({ payload } = await compactVerify(token, getKey, { algorithms: [...algorithms] }));
  } catch (err) {
    return refusal(403, NOT_AUTHORIZED, (err as Error).message);
  }
  let claims: unknown;
  try {
    claims = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payload));
  } catch {
    return refusal(403, NOT_AUTHORIZED, 'the payload is not JSON');
  }
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims))
    return refusal(403, NOT_AUTHORIZED, 'the payload is not a JSON object');
  return { header, claims: claims as Record<string, unknown> };
}

export function isRefusal(value: object): value is JwtRefusal {
  return 'status' in value;
}

export function refusal(status: 401 | 403, message: string, reason: string): JwtRefusal {
  return { status, message, reason };
}

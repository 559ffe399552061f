import { createHash, timingSafeEqual } from 'node:crypto';
import type { OAuthApiSettings } from '../../../contracts/oauth/actions';
import { OAuthErrors } from '../errors';

/** Proof Key for Code Exchange (RFC 7636): what an authorisation code keeps of its request. */
export interface PkceChallenge {
  code_challenge: string;
  code_challenge_method: 'S256' | 'plain';
}

/** RFC 7636 §4.1: 43 to 128 characters of the unreserved set. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
/** BASE64URL(SHA-256) without padding: always 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const S256_SHAPE = 'the 43-character BASE64URL of a SHA-256';
const PLAIN_SHAPE = '43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_", "~"';

export function requiresPkce(api: OAuthApiSettings): boolean {
  return api.oauth_meta?.require_pkce === true;
}

/**
 * The challenge of an authorisation request (RFC 7636 §4.3), checked: the method defaults to
 * `plain`, an unknown one is refused, and an API with `oauth_meta.require_pkce` refuses a code
 * request without one. Undefined when the request carries none (or asks for a token).
 */
export function challengeOf(
  api: OAuthApiSettings,
  responseType: string,
  challenge: string | undefined,
  method: string | undefined,
): PkceChallenge | undefined {
  if (responseType !== 'code') return undefined;
  if (challenge === undefined || challenge === '') {
    if (method !== undefined && method !== '') {
      throw invalidRequest('code_challenge_method was sent without a code_challenge');
    }
    if (requiresPkce(api)) throw invalidRequest('code_challenge is required on this API (PKCE, RFC 7636)');
    return undefined;
  }
  const chosen = method === undefined || method === '' ? 'plain' : method;
  if (chosen !== 'S256' && chosen !== 'plain') {
    throw invalidRequest('code_challenge_method must be S256 or plain');
  }
  const shape = chosen === 'S256' ? S256_CHALLENGE : VERIFIER;
  if (!shape.test(challenge)) {
    throw invalidRequest(`code_challenge must be ${chosen === 'S256' ? S256_SHAPE : PLAIN_SHAPE}`);
  }
  return { code_challenge: challenge, code_challenge_method: chosen };
}

/**
 * The token request's proof for a code (RFC 7636 §4.6): a code issued with a challenge needs the
 * matching `code_verifier`; a verifier for a code issued without one is refused too, so PKCE
 * cannot be dropped from a flow that started without it (RFC 9700 §2.1.1). Throws `invalid_grant`.
 */
export function assertVerifier(
  api: OAuthApiSettings,
  challenge: PkceChallenge | undefined,
  verifier: string | undefined,
): void {
  const sent = verifier !== undefined && verifier !== '';
  if (!challenge) {
    if (requiresPkce(api)) {
      throw invalidGrant('This API requires PKCE; the authorisation code was issued without a code_challenge');
    }
    if (sent) throw invalidGrant('code_verifier was sent for a code issued without a code_challenge');
    return;
  }
  if (!sent) throw invalidGrant('code_verifier is required: the code was issued with a code_challenge');
  const derived = VERIFIER.test(verifier) ? derive(challenge.code_challenge_method, verifier) : '';
  if (!sameText(derived, challenge.code_challenge)) {
    throw invalidGrant('code_verifier does not match the code_challenge');
  }
}

function derive(method: PkceChallenge['code_challenge_method'], verifier: string): string {
  return method === 'S256' ? createHash('sha256').update(verifier, 'ascii').digest('base64url') : verifier;
}

/** Constant-time comparison of two ASCII texts (the lengths are public: both are bounded shapes). */
function sameText(actual: string, expected: string): boolean {
  const a = Buffer.from(actual, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

function invalidRequest(description: string) {
  return OAuthErrors.protocol(400, 'invalid_request', description);
}

function invalidGrant(description: string) {
  return OAuthErrors.protocol(400, 'invalid_grant', description);
}

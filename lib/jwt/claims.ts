/**
 * Reading claims as the reference gateway does: a name is first a literal key (claims may have
 * dots in their names), then a path of nested objects (`user.id`).
 */
export function claimValue(claims: Record<string, unknown>, name: string): unknown {
  // own keys only: a claim name such as `constructor` must not read Object.prototype
  if (Object.hasOwn(claims, name)) return claims[name];
  if (!name.includes('.')) return undefined;
  let current: unknown = claims;
  for (const part of name.split('.')) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
    if (!Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** A claim as a non-empty string, or undefined. */
export function stringClaim(claims: Record<string, unknown>, name: string): string | undefined {
  const value = claimValue(claims, name);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Scopes: a space-separated string, or an array of strings (nested arrays flattened). */
export function scopesOf(claims: Record<string, unknown>, name: string): string[] {
  const value = claimValue(claims, name);
  if (typeof value === 'string') return value.split(' ').filter((scope) => scope !== '');
  if (Array.isArray(value)) return value.flat(Infinity).filter((scope): scope is string => typeof scope === 'string');
  return [];
}

/** `aud` as a list: a string or an array of strings. */
export function audiencesOf(claims: Record<string, unknown>): string[] {
  const aud = claims.aud;
  if (typeof aud === 'string') return [aud];
  if (Array.isArray(aud)) return aud.filter((entry): entry is string => typeof entry === 'string');
  return [];
}

/** The claims identity providers put an OAuth client's id in (Keycloak, Okta, Gluu, RFC 9068). */
export const CLIENT_ID_CLAIMS = ['clientId', 'cid', 'client_id'] as const;

export function clientIdOf(claims: Record<string, unknown>): string | undefined {
  for (const name of CLIENT_ID_CLAIMS) {
    const value = claims[name];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

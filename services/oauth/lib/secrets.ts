import { randomBytes, timingSafeEqual } from 'node:crypto';
import { hashSecret } from '../../../lib/secret-hash';

/** A new random secret, code or refresh token (URL-safe). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** A new client id in the reference gateway's shape: 32 hex digits. */
export function newClientId(): string {
  return randomBytes(16).toString('hex');
}

/** Compares a presented secret with a stored SHA-256 in constant time. */
export function secretMatches(presented: string, storedHash: string): boolean {
  const actual = Buffer.from(hashSecret(presented), 'hex');
  const expected = Buffer.from(storedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export { hashSecret };

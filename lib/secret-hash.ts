import { hash } from 'node:crypto';

/**
 * The stored form of a long random secret (dashboard access keys, login sessions, single
 * sign-on nonces): SHA-256 in hex. Only this is kept, and lookups go by it, so a leaked table
 * or a logged query gives nobody a usable credential. Not for passwords: those are short and
 * guessable and get a salted, slow hash (lib/password.ts).
 */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

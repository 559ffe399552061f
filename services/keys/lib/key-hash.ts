import { hash, randomBytes } from 'node:crypto';

/** The stored form of a key (hash_keys): only this is kept, and it is what lookups use. */
export function hashKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** A new key in the reference gateway's shape: the organisation id, then 32 random hex digits. */
export function generateKey(orgId: string): string {
  return `${orgId}${randomBytes(16).toString('hex')}`;
}

/** Basic-auth users are keys named by organisation and username. */
export function basicUserKey(orgId: string, username: string): string {
  return `${orgId}${username}`;
}

import { randomBytes } from 'node:crypto';

/** A 24-hex-digit record id, the shape the reference dashboard uses for internal ids. */
export function newRecordId(): string {
  return randomBytes(12).toString('hex');
}

/** A 32-hex-digit public id (API ids, access keys). */
export function newPublicId(): string {
  return randomBytes(16).toString('hex');
}

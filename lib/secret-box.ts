import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encryption at rest of secrets the gateway must read back (a key's HMAC secret): AES-256-GCM
 * with a key derived (HKDF-SHA256) from a node secret and a purpose, so one node secret gives
 * each kind of stored secret a key of its own. The sealed form is text, `gcm1.<iv>.<tag>.<data>`
 * in base64url; a changed node secret or a tampered value fails to open instead of giving garbage.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(nodeSecret: string, purpose: string) {
    if (nodeSecret === '') throw new Error('a secret box needs a non-empty node secret');
    this.key = Buffer.from(hkdfSync('sha256', nodeSecret, 'gw secret box', purpose, 32));
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [
      'gcm1',
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      data.toString('base64url'),
    ].join('.');
  }

  /** The plain text, or undefined when the value is not sealed by this box (other secret, tampered, not sealed). */
  open(sealed: string): string | undefined {
    const parts = sealed.split('.');
    if (parts.length !== 4 || parts[0] !== 'gcm1') return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(parts[1], 'base64url'));
      decipher.setAuthTag(Buffer.from(parts[2], 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(parts[3], 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }

  static isSealed(value: string): boolean {
    return value.startsWith('gcm1.');
  }
}

import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Encryption at rest for secrets a service must be able to read back (certificate private keys):
 * AES-256-GCM under a key derived (HKDF-SHA256) from a node secret and a purpose, so one node
 * secret yields unrelated keys for unrelated uses. The sealed form is
 * `v1:<base64 of iv | tag | ciphertext>`; a wrong secret or a changed byte fails to open.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secret: string, purpose: string) {
    if (secret === '') throw new Error(`SecretBox(${purpose}): no secret to derive the key from`);
    this.key = Buffer.from(hkdfSync('sha256', secret, 'gw-secret-box', purpose, 32));
  }

  seal(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')}`;
  }

  /** Throws when the text was not sealed with this secret and purpose, or was altered. */
  open(sealed: string): string {
    if (!sealed.startsWith(`${VERSION}:`)) throw new Error('not a sealed secret');
    const raw = Buffer.from(sealed.slice(VERSION.length + 1), 'base64');
    if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('sealed secret too short');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}

import { verify, type KeyObject } from 'node:crypto';
import type { CertificateMaterial } from '../../../../../contracts/certs/actions';
import { certificatePublicKey } from '../../../../../lib/certificate-public-key';

/**
 * `rsa-sha256` request signatures (RSASSA-PKCS1-v1_5 over SHA-256, as the reference gateway
 * checks them) against the public key of a certificate in the store (a key's `rsa_certificate_id`).
 */
export const RSA_ALGORITHM = 'rsa-sha256';

/** The reference gateway's answers (500) when the key's certificate is missing or not RSA. */
export const RsaSignatureMessages = {
  certificateNotFound: 'Certificate not found',
  notRsa: "Certificate doesn't contain RSA Public key",
} as const;

/** Public keys parsed once per certificate the cache holds (a deleted certificate's entry goes with it). */
const parsed = new WeakMap<CertificateMaterial, KeyObject | null>();

/** The certificate's RSA public key; undefined when it holds another kind of key. */
export function rsaPublicKey(material: CertificateMaterial): KeyObject | undefined {
  let key = parsed.get(material);
  if (key === undefined) {
    const found = certificatePublicKey(material.cert_pem);
    key = found?.asymmetricKeyType === 'rsa' ? found : null;
    parsed.set(material, key);
  }
  return key ?? undefined;
}

export function rsaMatches(key: KeyObject, signed: string, signature: Buffer): boolean {
  try {
    return verify('RSA-SHA256', Buffer.from(signed), key, signature);
  } catch {
    return false;
  }
}

import { X509Certificate, type KeyObject } from 'node:crypto';

/**
 * The public key of a stored certificate (its leaf: the first `CERTIFICATE` block of the PEM
 * text), or undefined when the text does not parse. Used to check `rsa-sha256` request signatures
 * (the gateway) and to validate a key's `rsa_certificate_id` (the keys service).
 */
export function certificatePublicKey(certPem: string): KeyObject | undefined {
  try {
    return new X509Certificate(certPem).publicKey;
  } catch {
    return undefined;
  }
}

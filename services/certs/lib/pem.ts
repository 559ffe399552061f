import { createHash, createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { CertsErrors } from '../errors';

/** A certificate as uploaded, checked: the leaf, its chain, and its private key if one came with it. */
export interface ParsedCertificate {
  leaf: X509Certificate;
  /** the certificates in PEM, leaf first */
  certPem: string;
  /** the private key in PKCS#8 PEM */
  keyPem?: string;
  /** SHA-256 of the leaf's DER form, lowercase hex */
  fingerprint: string;
}

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n([\s\S]*?)-----END \1-----/g;
const KEY_LABELS = new Set(['PRIVATE KEY', 'RSA PRIVATE KEY', 'EC PRIVATE KEY']);

/**
 * Reads an upload: one or more `CERTIFICATE` blocks (the first is the certificate, the others
 * its chain) and at most one unencrypted private key, which must belong to the certificate.
 * Anything else in the text (a multipart envelope, comments) is ignored, as PEM readers do.
 * Throws a 400 for text without a certificate, a certificate that does not parse, an expired
 * one, or a key that does not parse or does not match.
 */
export function parseCertificateUpload(text: string, now: number = Date.now()): ParsedCertificate {
  const certs: string[] = [];
  const keys: string[] = [];
  for (const match of text.matchAll(BLOCK)) {
    const [block, label] = match;
    if (label === 'CERTIFICATE') certs.push(block);
    else if (KEY_LABELS.has(label)) keys.push(block);
    else if (label === 'ENCRYPTED PRIVATE KEY')
      throw CertsErrors.invalid('Encrypted private keys are not supported: upload the key without a passphrase');
  }
  if (certs.length === 0)
    throw CertsErrors.invalid('Failed to decode certificate: no PEM-encoded CERTIFICATE block found');
  if (keys.length > 1)
    throw CertsErrors.invalid('More than one private key: upload one certificate with at most one key');
  const chain = certs.map((pem, index) => {
    try {
      return new X509Certificate(pem);
    } catch (err) {
      throw CertsErrors.invalid(
        `Failed to parse certificate${index > 0 ? ` ${index + 1} of the chain` : ''}: ${(err as Error).message}`,
      );
    }
  });
  const leaf = chain[0];
  if (Date.parse(leaf.validTo) <= now)
    throw CertsErrors.invalid(`Certificate has expired (not valid after ${new Date(leaf.validTo).toISOString()})`);
  const fingerprint = createHash('sha256').update(leaf.raw).digest('hex');
  const certPem = chain.map((cert) => cert.toString()).join('');
  if (keys.length === 0) return { leaf, certPem, fingerprint };
  let key: KeyObject;
  try {
    key = createPrivateKey(keys[0]);
  } catch (err) {
    throw CertsErrors.invalid(`Failed to parse the private key: ${(err as Error).message}`);
  }
  if (!leaf.checkPrivateKey(key)) throw CertsErrors.invalid('The private key does not match the certificate');
  return { leaf, certPem, fingerprint, keyPem: key.export({ type: 'pkcs8', format: 'pem' }) as string };
}

/** The value of one attribute (`CN`) of a distinguished name as node prints it (one `K=V` a line). */
export function nameAttribute(dn: string, attribute: string): string {
  for (const line of dn.split('\n')) {
    if (line.startsWith(`${attribute}=`)) return line.slice(attribute.length + 1);
  }
  return '';
}

/** The `DNS:` entries of a subjectAltName. */
export function dnsNames(subjectAltName: string | undefined): string[] {
  if (!subjectAltName) return [];
  return subjectAltName
    .split(', ')
    .filter((entry) => entry.startsWith('DNS:'))
    .map((entry) => entry.slice(4));
}

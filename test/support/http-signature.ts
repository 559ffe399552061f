import { createHmac, createSign } from 'node:crypto';

/**
 * A second, independent HTTP signature signer, written from draft-cavage-http-signatures
 * (section 2.3, "Signature String Construction") and not from the gateway's code, so a bug the
 * gateway shares with one signer can not hide: each signed header is a line `name: value`, the
 * `(request-target)` line is `(request-target): <lower-case method> <path>`, lines are joined
 * with a single newline, and the signature is the base64 HMAC of that string; for `rsa-sha256`
 * the base64 RSASSA-PKCS1-v1_5 SHA-256 signature of it made with the PEM private key in `secret`.
 */
export interface DraftSignOptions {
  keyId: string;
  secret: string;
  /** `rsa-sha256`: `secret` is the PEM private key */
  algorithm: 'hmac-sha1' | 'hmac-sha256' | 'hmac-sha384' | 'hmac-sha512' | 'rsa-sha256';
  method: string;
  /** path and query, as sent */
  target: string;
  /** the headers to sign, in order; their values come from `values` */
  headers: string[];
  values: Record<string, string>;
  /** send the signature URL-escaped (as many clients of the reference gateway do) */
  urlEscape?: boolean;
}

export function draftSignature(options: DraftSignOptions): string {
  const lines: string[] = [];
  for (const header of options.headers) {
    const name = header.toLowerCase();
    if (name === '(request-target)') lines.push(`(request-target): ${options.method.toLowerCase()} ${options.target}`);
    else lines.push(`${name}: ${options.values[name]}`);
  }
  const base64 =
    options.algorithm === 'rsa-sha256'
      ? createSign('sha256').update(lines.join('\n')).sign(options.secret, 'base64')
      : createHmac(options.algorithm.slice('hmac-'.length), options.secret).update(lines.join('\n')).digest('base64');
  const signature = options.urlEscape ? encodeURIComponent(base64) : base64;
  return `Signature keyId="${options.keyId}",algorithm="${options.algorithm}",headers="${options.headers.join(' ')}",signature="${signature}"`;
}

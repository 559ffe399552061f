import { createHmac } from 'node:crypto';

/**
 * A second, independent HTTP signature signer, written from draft-cavage-http-signatures
 * (section 2.3, "Signature String Construction") and not from the gateway's code, so a bug the
 * gateway shares with one signer can not hide: each signed header is a line `name: value`, the
 * `(request-target)` line is `(request-target): <lower-case method> <path>`, lines are joined
 * with a single newline, and the signature is the base64 HMAC of that string.
 */
export interface DraftSignOptions {
  keyId: string;
  secret: string;
  algorithm: 'hmac-sha1' | 'hmac-sha256' | 'hmac-sha384' | 'hmac-sha512';
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
  const digest = options.algorithm.slice('hmac-'.length);
  const base64 = createHmac(digest, options.secret).update(lines.join('\n')).digest('base64');
  const signature = options.urlEscape ? encodeURIComponent(base64) : base64;
  return `Signature keyId="${options.keyId}",algorithm="${options.algorithm}",headers="${options.headers.join(' ')}",signature="${signature}"`;
}

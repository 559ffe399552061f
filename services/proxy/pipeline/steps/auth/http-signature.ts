import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * HTTP request signatures (draft-cavage-http-signatures) with a shared secret, as the reference
 * gateway checks them: `Signature keyId="…",algorithm="hmac-sha256",headers="(request-target) date",signature="…"`.
 * Pure functions; the authenticator (hmac.ts) does the key lookup.
 */

export const HMAC_ALGORITHMS = {
  'hmac-sha1': 'sha1',
  'hmac-sha256': 'sha256',
  'hmac-sha384': 'sha384',
  'hmac-sha512': 'sha512',
} as const;
export type HmacAlgorithm = keyof typeof HMAC_ALGORITHMS;

export interface SignatureFields {
  keyId: string;
  /** as sent; '' when the client named none (the reference then uses hmac-sha1) */
  algorithm: string;
  /** lower-case header names; `date` when the client named none */
  headers: string[];
  signature: string;
}

const FIELD = /\s*([A-Za-z]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,"]*))\s*(?:,|$)/y;
const KNOWN_FIELDS: Record<string, keyof SignatureFields> = {
  keyid: 'keyId',
  algorithm: 'algorithm',
  headers: 'headers',
  signature: 'signature',
};

/** The fields of a `Signature …` credential, or undefined when it is malformed or names an unknown field. */
export function parseSignatureHeader(value: string): SignatureFields | undefined {
  const text = value.replace(/^signature\s+/i, '').trim();
  const fields: SignatureFields = { keyId: '', algorithm: '', headers: [], signature: '' };
  FIELD.lastIndex = 0;
  while (FIELD.lastIndex < text.length) {
    const start = FIELD.lastIndex;
    const match = FIELD.exec(text);
    if (!match || FIELD.lastIndex === start) return undefined;
    const name = KNOWN_FIELDS[match[1].toLowerCase()];
    if (!name) return undefined;
    const quoted = match[2];
    // Escapes are rare: most values are taken as they are, without a regular expression.
    const fieldValue =
      quoted === undefined ? match[3] : quoted.includes('\\') ? quoted.replace(/\\(.)/g, '$1') : quoted;
    if (name === 'headers')
      fields.headers = fieldValue
        .toLowerCase()
        .split(' ')
        .filter((h) => h !== '');
    else fields[name] = fieldValue;
  }
  if (fields.keyId === '' || fields.signature === '') return undefined;
  if (fields.headers.length === 0) fields.headers = ['date'];
  return fields;
}

/**
 * The signed date: `X-Aux-Date` when present (for clients that can not set `Date`), else `Date`.
 * A signed `date` header line then reads `x-aux-date: …`, as in the reference gateway.
 */
export function signedDate(headers: IncomingHttpHeaders): { name: 'x-aux-date' | 'date'; value: string } | undefined {
  const aux = headers['x-aux-date'];
  if (typeof aux === 'string' && aux !== '') return { name: 'x-aux-date', value: aux };
  const date = headers.date;
  if (typeof date === 'string' && date !== '') return { name: 'date', value: date };
  return undefined;
}

/** The signing string of the draft: one `name: value` line per signed header, in the order given. */
export function signingString(
  fields: SignatureFields,
  method: string,
  target: string,
  headers: IncomingHttpHeaders,
): string {
  return fields.headers
    .map((name) => {
      if (name === '(request-target)') return `(request-target): ${method.toLowerCase()} ${target}`;
      if (name === 'date') {
        const date = signedDate(headers);
        return `${date?.name ?? 'date'}: ${date?.value.trim() ?? ''}`;
      }
      const value = headers[name];
      return `${name}: ${(Array.isArray(value) ? value.join(', ') : (value ?? '')).trim()}`;
    })
    .join('\n');
}

/**
 * The signature's bytes: sent plain (base64) or URL-escaped (`%2B`, `%2b`, …), as clients of the
 * reference gateway do. Undefined when it is neither.
 */
export function signatureBytes(signature: string): Buffer | undefined {
  let text = signature;
  if (text.includes('%')) {
    try {
      text = decodeURIComponent(text);
    } catch {
      return undefined;
    }
  }
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return undefined;
  return Buffer.from(text, 'base64');
}

/** Whether `signature` is the HMAC of `signed` with `secret` (the secret's text is the key), compared in constant time. */
export function hmacMatches(algorithm: HmacAlgorithm, secret: string, signed: string, signature: Buffer): boolean {
  const expected = createHmac(HMAC_ALGORITHMS[algorithm], secret).update(signed).digest();
  return expected.length === signature.length && timingSafeEqual(expected, signature);
}

/**
 * Whether the signed date is within `allowedSkewMs` of now (≤ 0: any date). A date that does
 * not parse as an HTTP date (`Mon, 02 Jan 2006 15:04:05 GMT`) always fails, as in the reference.
 */
export function dateWithinSkew(value: string | undefined, allowedSkewMs: number, now: number): boolean {
  if (value === undefined) return false;
  const at = httpDateMs(value);
  if (Number.isNaN(at)) return false;
  return allowedSkewMs <= 0 || Math.abs(now - at) <= allowedSkewMs;
}

const HTTP_DATE = /^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} (?:[A-Za-z]{1,5}|[+-]\d{2}(?::?\d{2})?)$/;
/** The date read last and its epoch ms: the requests signed within one second carry the same date. */
let lastDate: string | undefined;
let lastDateMs = NaN;

/** Epoch ms of an HTTP date; NaN when it is not one. */
function httpDateMs(value: string): number {
  if (value === lastDate) return lastDateMs;
  const at = HTTP_DATE.test(value.trim()) ? Date.parse(value) : NaN;
  lastDate = value;
  lastDateMs = at;
  return at;
}

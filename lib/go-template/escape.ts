import { bytesOf } from './values';

const HTML: Record<string, string> = {
  '\0': '\uFFFD',
  '"': '&#34;',
  "'": '&#39;',
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
};

/** template.HTMLEscapeString. */
export function htmlEscape(text: string): string {
  return text.replace(/[\0"'&<>]/g, (c) => HTML[c]);
}

const JS: Record<string, string> = {
  '\\': '\\\\',
  "'": "\\'",
  '"': '\\"',
  '<': '\\u003C',
  '>': '\\u003E',
  '&': '\\u0026',
  '=': '\\u003D',
};

/** A character unicode.IsPrint accepts: letters, marks, numbers, punctuation, symbols, ASCII space. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

const hex4 = (code: number): string => `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;

/** template.JSEscapeString: quotes and HTML-significant characters escaped, control characters as \uXXXX. */
export function jsEscape(text: string): string {
  let out = '';
  for (const c of text) {
    const code = c.codePointAt(0) as number;
    if (JS[c] !== undefined) out += JS[c];
    else if (code < 0x20) out += hex4(code);
    else if (code < 0x80 || PRINTABLE.test(c)) out += c;
    else out += hex4(code);
  }
  return out;
}

const UNRESERVED = /[A-Za-z0-9\-_.~]/;

/** url.QueryEscape: space as `+`, every byte but [A-Za-z0-9-_.~] as %XX with uppercase hex. */
export function queryEscape(text: string): string {
  let out = '';
  for (const byte of bytesOf(text)) {
    const c = String.fromCharCode(byte);
    if (byte < 0x80 && UNRESERVED.test(c)) out += c;
    else if (c === ' ') out += '+';
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

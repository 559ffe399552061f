import { RegoError, type Location } from './errors';

export type TokenKind = 'ident' | 'string' | 'number' | 'punct' | 'newline' | 'eof';

export interface Token extends Location {
  kind: TokenKind;
  /** identifier name, punctuation, or the decoded string / number text */
  text: string;
}

/** Longest first, so `:=` wins over `:` and `==` over `=`. */
const PUNCTUATION = [
  ':=',
  '==',
  '!=',
  '<=',
  '>=',
  '{',
  '}',
  '[',
  ']',
  '(',
  ')',
  ',',
  '.',
  ';',
  ':',
  '=',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '|',
  '&',
];
const IDENT_START = /[A-Za-z_]/;
const IDENT_PART = /[A-Za-z0-9_]/;
const DIGIT = /[0-9]/;

/** Splits a rule file into tokens; newlines are tokens because they end a body's expressions. */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const at = (): Location => ({ line, column: i - lineStart + 1 });
  while (i < source.length) {
    const c = source[i];
    if (c === '\n') {
      tokens.push({ kind: 'newline', text: '\n', ...at() });
      i++;
      line++;
      lineStart = i;
    } else if (c === ' ' || c === '\t' || c === '\r') {
      i++;
    } else if (c === '#') {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (IDENT_START.test(c)) {
      const start = at();
      let end = i;
      while (end < source.length && IDENT_PART.test(source[end])) end++;
      tokens.push({ kind: 'ident', text: source.slice(i, end), ...start });
      i = end;
    } else if (DIGIT.test(c)) {
      const start = at();
      const match = /^[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(source.slice(i))![0];
      tokens.push({ kind: 'number', text: match, ...start });
      i += match.length;
    } else if (c === '"') {
      const start = at();
      const end = closingQuote(source, i, start);
      tokens.push({ kind: 'string', text: decodeString(source.slice(i, end + 1), start), ...start });
      i = end + 1;
    } else if (c === '`') {
      const start = at();
      const end = source.indexOf('`', i + 1);
      if (end === -1) throw new RegoError('syntax', 'unterminated raw string', start);
      const raw = source.slice(i + 1, end);
      tokens.push({ kind: 'string', text: raw, ...start });
      for (const ch of raw) if (ch === '\n') line++;
      if (raw.includes('\n')) lineStart = i + 1 + raw.lastIndexOf('\n') + 1;
      i = end + 1;
    } else {
      const punct = PUNCTUATION.find((p) => source.startsWith(p, i));
      if (!punct) throw new RegoError('syntax', `unexpected character '${c}'`, at());
      tokens.push({ kind: 'punct', text: punct, ...at() });
      i += punct.length;
    }
  }
  tokens.push({ kind: 'eof', text: '', ...at() });
  return tokens;
}

function closingQuote(source: string, open: number, start: Location): number {
  let i = open + 1;
  while (i < source.length && source[i] !== '"') {
    if (source[i] === '\n') break;
    i += source[i] === '\\' ? 2 : 1;
  }
  if (source[i] !== '"') throw new RegoError('syntax', 'unterminated string', start);
  return i;
}

function decodeString(quoted: string, start: Location): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    throw new RegoError('syntax', `invalid string ${quoted}`, start);
  }
}

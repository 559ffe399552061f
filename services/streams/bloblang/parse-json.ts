import { int64, newObject, type Value } from './values';

const MAX_DEPTH = 2_000;

/**
 * JSON text → Value, keeping what JSON.parse loses: a number written without fraction or
 * exponent is an integer (Go's json.Number then ISanitize), and `__proto__` is an ordinary key.
 * Errors read like Go's encoding/json.
 */
export function parseJson(text: string): Value {
  let at = 0;
  const fail = (what: string): never => {
    if (at >= text.length) throw new SyntaxError('unexpected end of JSON input');
    throw new SyntaxError(`invalid character ${quoteChar(text[at])} ${what}`);
  };
  const skip = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at])) at++;
  };
  const value = (depth: number): Value => {
    if (depth > MAX_DEPTH) throw new SyntaxError('exceeded max depth');
    skip();
    const c = text[at];
    if (c === '{') return object(depth);
    if (c === '[') return array(depth);
    if (c === '"') return string();
    if (c === '-' || (c >= '0' && c <= '9')) return number();
    for (const [word, result] of [['true', true], ['false', false], ['null', null]] as const) {
      if (text.startsWith(word, at)) {
        at += word.length;
        return result;
      }
    }
    return fail('looking for beginning of value');
  };
  const object = (depth: number): Value => {
    const out = newObject();
    at++;
    skip();
    if (text[at] === '}') return at++, out;
    for (;;) {
      skip();
      if (text[at] !== '"') fail('looking for beginning of object key string');
      const key = string();
      skip();
      if (text[at] !== ':') fail('after object key');
      at++;
      out[key] = value(depth + 1);
      skip();
      if (text[at] === ',') { at++; continue; }
      if (text[at] === '}') return at++, out;
      fail('after object key:value pair');
    }
  };
  const array = (depth: number): Value => {
    const out: Value[] = [];
    at++;
    skip();
    if (text[at] === ']') return at++, out;
    for (;;) {
      out.push(value(depth + 1));
      skip();
      if (text[at] === ',') { at++; continue; }
      if (text[at] === ']') return at++, out;
      fail('after array element');
    }
  };
  const string = (): string => {
    const start = at;
    at++;
    while (at < text.length && text[at] !== '"') {
      if (text[at] === '\\') at++;
      else if (text.charCodeAt(at) < 0x20) fail('in string literal');
      at++;
    }
    if (at >= text.length) fail('');
    at++;
    return JSON.parse(text.slice(start, at)) as string;
  };
  const number = (): Value => {
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(at, at + 400));
    if (!m) return fail('in numeric literal');
    at += m![0].length;
    if (m![2] || m![3]) return Number(m![0]);
    const big = BigInt(m![0]);
    return int64(big) === big ? big : Number(m![0]);
  };
  const result = value(0);
  skip();
  if (at < text.length) fail('after top-level value');
  return result;
}

function quoteChar(c: string): string {
  return c === "'" ? `'\\''` : `'${c}'`;
}

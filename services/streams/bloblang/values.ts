import { pace, sortedKeys } from './budget';
import { Timestamp } from './timestamp';
import { formatTimestamp, RFC3339_NANO } from './time-layout';

/**
 * Bloblang values, with Go's distinctions kept: integers (int64) are bigints, floats are
 * numbers, bytes are Uint8Arrays. Objects have no prototype so a `__proto__` key is data.
 */
export type Value = null | boolean | number | bigint | string | Uint8Array | Timestamp | Value[] | ValueObject;
export interface ValueObject {
  [key: string]: Value;
}

/** `deleted()`: removes the field (or the message) it is assigned to */
export const DELETE = Symbol('delete');
/** the result of an `if` without `else` (or a `match` without a case): assign nothing */
export const NOTHING = Symbol('nothing');
export type Result = Value | typeof DELETE | typeof NOTHING;

export type TypeName =
  'string' | 'bytes' | 'number' | 'bool' | 'timestamp' | 'array' | 'object' | 'null' | 'delete' | 'nothing';

export function newObject(): ValueObject {
  return Object.create(null) as ValueObject;
}

export function isObject(v: unknown): v is ValueObject {
  return (
    typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array) && !(v instanceof Timestamp)
  );
}

export function isNumber(v: unknown): v is number | bigint {
  return typeof v === 'number' || typeof v === 'bigint';
}

export function typeOf(v: Result): TypeName {
  if (v === DELETE) return 'delete';
  if (v === NOTHING) return 'nothing';
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
    case 'bigint':
      return 'number';
  }
  if (v instanceof Uint8Array) return 'bytes';
  if (v instanceof Timestamp) return 'timestamp';
  return Array.isArray(v) ? 'array' : 'object';
}

/** int64 wrap-around, as Go's arithmetic does */
export const int64 = (n: bigint): bigint => BigInt.asIntN(64, n);

export function toFloat(v: number | bigint): number {
  return typeof v === 'bigint' ? Number(v) : v;
}

/** Go's int64(float64) conversion: truncation toward zero */
export function floatToInt(n: number): bigint {
  if (!Number.isFinite(n)) return n > 0 ? (1n << 63n) - 1n : -(1n << 63n);
  return int64(BigInt(Math.trunc(n)));
}

export function isTruthyNumber(v: number | bigint): boolean {
  return typeof v === 'bigint' ? v !== 0n : v !== 0;
}

const decoder = new TextDecoder();
export const bytesToString = (b: Uint8Array): string => decoder.decode(b);

/** Go's strconv.FormatFloat(f, 'g', -1, 64): exponent form below 1e-4 and from 1e6 (shortest digits) */
export function formatFloat(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa, e] = n.toExponential().split('e');
  const exp = Number(e);
  return exp < -4 || exp >= 6 ? goExponent(mantissa, exp) : String(n);
}

function goExponent(mantissa: string, exp: number): string {
  const sign = exp < 0 ? '-' : '+';
  return `${mantissa}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
}

/** Go's encoding/json float formatting */
function jsonFloat(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`json: unsupported value: ${formatFloat(n)}`);
  const abs = Math.abs(n);
  if (abs !== 0 && (abs < 1e-6 || abs >= 1e21)) {
    const [mantissa, e] = n.toExponential().split('e');
    const exp = Number(e);
    return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(n);
}

/** Value → text, as Bento's IToString (structured values become JSON) */
export function toText(v: Value): string {
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return bytesToString(v);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return formatFloat(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v === null) return 'null';
  if (v instanceof Timestamp) return formatTimestamp(v, RFC3339_NANO);
  return toJson(v);
}

const MAX_OUTPUT = 64 * 1024 * 1024;

/** Go's encoding/json string quoting: \b and \f as \u escapes, U+2028/9 escaped, optionally <, >, & too */
function quoteJson(s: string, escapeHtml: boolean): string {
  return JSON.stringify(s).replace(/\\[\\bf]|[\u2028\u2029<>&]/g, (m) => {
    switch (m) {
      case '\\b':
        return '\\u0008';
      case '\\f':
        return '\\u000c';
      case '\u2028':
        return '\\u2028';
      case '\u2029':
        return '\\u2029';
      case '<':
        return escapeHtml ? '\\u003c' : m;
      case '>':
        return escapeHtml ? '\\u003e' : m;
      case '&':
        return escapeHtml ? '\\u0026' : m;
      default:
        return m;
    }
  });
}

/** Go's JSON encoding of a value as Bento writes messages: keys sorted, no HTML escaping unless asked */
export function toJson(v: Value, indent = '', escapeHtml = false): string {
  const parts: string[] = [];
  let size = 0;
  const push = (s: string) => {
    size += s.length;
    if (size > MAX_OUTPUT) throw new Error(`serialised value exceeds ${MAX_OUTPUT} bytes`);
    parts.push(s);
  };
  const write = (value: Value, depth: string): void => {
    pace();
    if (value === null) return push('null');
    if (typeof value === 'string') return push(quoteJson(value, escapeHtml));
    if (typeof value === 'boolean') return push(value ? 'true' : 'false');
    if (typeof value === 'bigint') return push(value.toString());
    if (typeof value === 'number') return push(jsonFloat(value));
    if (value instanceof Uint8Array) return push(JSON.stringify(Buffer.from(value).toString('base64')));
    if (value instanceof Timestamp) return push(JSON.stringify(toText(value)));
    const inner = indent ? depth + indent : '';
    const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
    const entries: Array<[string | null, Value]> = Array.isArray(value)
      ? value.map((e) => [null, e])
      : sortedKeys(value).map((k) => [k, value[k]]);
    if (entries.length === 0) return push(open + close);
    push(open);
    entries.forEach(([key, e], i) => {
      if (i > 0) push(',');
      if (indent) push(`\n${inner}`);
      if (key !== null) push(quoteJson(key, escapeHtml) + (indent ? ': ' : ':'));
      write(e, inner);
    });
    if (indent) push(`\n${depth}`);
    push(close);
  };
  write(v, '');
  return parts.join('');
}

/** Go's ICompare: equality across number kinds, strings with bytes, deep for structures */
export function valuesEqual(a: Result, b: Result): boolean {
  if (a === null && b === null) return true;
  if (typeof a === 'string' || a instanceof Uint8Array) {
    const left = typeof a === 'string' ? a : bytesToString(a);
    return (
      (typeof b === 'string' || b instanceof Uint8Array) && left === (typeof b === 'string' ? b : bytesToString(b))
    );
  }
  if (isNumber(a)) {
    if (isNumber(b)) return typeof a === 'bigint' && typeof b === 'bigint' ? a === b : toFloat(a) === toFloat(b);
    return false;
  }
  if (typeof a === 'boolean') return typeof b === 'boolean' ? a === b : isNumber(b) ? a === isTruthyNumber(b) : false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((e, i) => valuesEqual(e, b[i]));
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && valuesEqual(a[k], b[k]));
  }
  if (a instanceof Timestamp) return false;
  return false;
}

export function cloneValue(v: Value): Value {
  pace();
  if (Array.isArray(v)) return v.map(cloneValue);
  if (isObject(v)) {
    const out = newObject();
    for (const k of Object.keys(v)) out[k] = cloneValue(v[k]);
    return out;
  }
  return v;
}

/** Plain JavaScript (from a caller) → Value: whole numbers become integers, as Go's JSON decoder with UseNumber gives */
export function fromPlain(v: unknown): Value {
  pace();
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isSafeInteger(v) ? BigInt(v) : v;
  if (typeof v === 'string' || typeof v === 'boolean' || typeof v === 'bigint') return v;
  if (v instanceof Uint8Array || v instanceof Timestamp) return v;
  if (v instanceof Date) return Timestamp.fromMillis(v.getTime());
  if (Array.isArray(v)) return v.map(fromPlain);
  if (typeof v === 'object') {
    const out = newObject();
    for (const [k, e] of Object.entries(v as Record<string, unknown>)) out[k] = fromPlain(e);
    return out;
  }
  return String(v);
}

/** Value → plain JavaScript: integers become numbers when exact, timestamps RFC 3339 strings */
export function toPlain(v: Value): unknown {
  pace();
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v;
  if (v instanceof Timestamp) return toText(v);
  if (v instanceof Uint8Array) return Buffer.from(v);
  if (Array.isArray(v)) return v.map(toPlain);
  if (isObject(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v))
      Object.defineProperty(out, k, { value: toPlain(v[k]), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return v;
}

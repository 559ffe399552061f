import { htmlEscape, jsEscape, queryEscape } from './escape';
import { sprintf } from './printf';
import { argumentText, bytesOf, ExecError, formatValue, isMap, isTrue, sprint, sprintln, typeName } from './values';
import { toXml } from './xml';

export type Builtin = (...args: unknown[]) => unknown;

type Kind = 'bool' | 'int' | 'float' | 'string' | 'invalid';

function basicKind(value: unknown): Kind {
  switch (typeof value) {
    case 'boolean':
      return 'bool';
    case 'bigint':
      return 'int';
    case 'number':
      return 'float';
    case 'string':
      return 'string';
  }
  return 'invalid';
}

const isNil = (value: unknown): boolean => value === undefined || value === null;

/** eq: arg1 == arg2 || arg1 == arg3 …; values of different basic kinds are an error, as in Go. */
function eq(first: unknown, ...rest: unknown[]): boolean {
  if (rest.length === 0) throw new ExecError('missing argument for comparison');
  const k1 = basicKind(first);
  for (const other of rest) {
    const k2 = basicKind(other);
    if (k1 !== k2) {
      if (!isNil(first) && !isNil(other)) {
        throw new ExecError(`incompatible types for comparison: ${typeName(first)} and ${typeName(other)}`);
      }
    } else if (k1 !== 'invalid') {
      if (first === other) return true;
    } else if (isNil(first) || isNil(other)) {
      if (isNil(first) === isNil(other)) return true;
    } else throw new ExecError(`non-comparable type ${formatValue(other)}: ${typeName(other)}`);
  }
  return false;
}

/** lt: only two values of one basic kind other than bool can be ordered. */
function lt(a: unknown, b: unknown): boolean {
  const k1 = basicKind(a);
  const k2 = basicKind(b);
  if (k1 === 'invalid' || k2 === 'invalid') throw new ExecError('invalid type for comparison');
  if (k1 !== k2) throw new ExecError(`incompatible types for comparison: ${typeName(a)} and ${typeName(b)}`);
  if (k1 === 'bool') throw new ExecError('invalid type for comparison');
  return (a as number) < (b as number);
}

/** A Go int index, checked against `limit` (the length, or the capacity for slice). */
function indexArg(value: unknown, limit: number): number {
  if (isNil(value)) throw new ExecError('cannot index slice/array with nil');
  if (typeof value !== 'bigint') throw new ExecError(`cannot index slice/array with type ${typeName(value)}`);
  if (value < 0n || value > BigInt(limit)) throw new ExecError(`index out of range: ${value}`);
  return Number(value);
}

function index(item: unknown, ...keys: unknown[]): unknown {
  if (isNil(item)) throw new ExecError('index of untyped nil');
  let current = item;
  for (const key of keys) {
    if (current === null) throw new ExecError('index of nil pointer');
    if (typeof current === 'string' || Array.isArray(current)) {
      const length = typeof current === 'string' ? bytesOf(current).length : current.length;
      const at = indexArg(key, length);
      if (at === length) throw new ExecError(`index out of range: ${at}`);
      current = typeof current === 'string' ? BigInt(bytesOf(current)[at]) : current[at];
    } else if (isMap(current)) {
      if (isNil(key)) throw new ExecError('value is nil; should be of type string');
      if (typeof key !== 'string') throw new ExecError(`value has type ${typeName(key)}; should be string`);
      const value = current[key];
      // a missing key is the map's zero element: a nil interface
      current = value === undefined ? null : value;
    } else throw new ExecError(`can't index item of type ${typeName(current)}`);
  }
  return current;
}

function slice(item: unknown, ...indexes: unknown[]): unknown {
  if (isNil(item)) throw new ExecError('slice of untyped nil');
  if (indexes.length > 3) throw new ExecError(`too many slice indexes: ${indexes.length}`);
  if (typeof item !== 'string' && !Array.isArray(item)) {
    throw new ExecError(`can't slice item of type ${typeName(item)}`);
  }
  if (typeof item === 'string' && indexes.length === 3) throw new ExecError('cannot 3-index slice a string');
  const length = typeof item === 'string' ? bytesOf(item).length : item.length;
  const bounds = [0, length];
  indexes.forEach((value, i) => (bounds[i] = indexArg(value, length)));
  if (bounds[0] > bounds[1]) throw new ExecError(`invalid slice index: ${bounds[0]} > ${bounds[1]}`);
  if (indexes.length === 3 && bounds[1] > bounds[2]) {
    throw new ExecError(`invalid slice index: ${bounds[1]} > ${bounds[2]}`);
  }
  if (typeof item === 'string') return bytesOf(item).subarray(bounds[0], bounds[1]).toString('utf8');
  return item.slice(bounds[0], bounds[1]);
}

function length(item: unknown): bigint {
  if (typeof item === 'string') return BigInt(bytesOf(item).length);
  if (Array.isArray(item)) return BigInt(item.length);
  if (isMap(item)) return BigInt(Object.keys(item).length);
  if (item === null) throw new ExecError('len of nil pointer');
  throw new ExecError(`len of type ${typeName(item)}`);
}

/** Go's json.Marshal: map keys sorted, `<`, `>`, `&`, U+2028 and U+2029 escaped. */
function jsonMarshal(value: unknown): string {
  const text = JSON.stringify(value ?? null, (_key, v: unknown) => {
    if (typeof v === 'bigint') return Number(v);
    if (isMap(v))
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, v[k]]),
      );
    return v;
  });
  return text.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The functions a template can call, with what Go's text/template builtins return. */
export const BUILTINS: Record<string, Builtin> = {
  jsonMarshal,
  xmlMarshal: (value) => toXml(value),
  eq,
  ne: (a, b) => !eq(a, b),
  lt,
  le: (a, b) => lt(a, b) || eq(a, b),
  gt: (a, b) => !(lt(a, b) || eq(a, b)),
  ge: (a, b) => !lt(a, b),
  not: (a) => !isTrue(a),
  len: length,
  index,
  slice,
  print: (...args) => sprint(args),
  printf: (format, ...args) => {
    if (typeof format !== 'string') {
      throw new ExecError(`value has type ${typeName(format)}; should be string`);
    }
    return sprintf(format, args);
  },
  println: (...args) => sprintln(args),
  html: (...args) => htmlEscape(argumentText(args)),
  js: (...args) => jsEscape(argumentText(args)),
  urlquery: (...args) => queryEscape(argumentText(args)),
};

/** How many arguments a fixed-arity builtin takes; Go refuses a call with another count. */
export const ARITY: Record<string, number> = { ne: 2, lt: 2, le: 2, gt: 2, ge: 2, not: 1, len: 1 };

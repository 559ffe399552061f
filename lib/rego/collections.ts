import { compare, equal, isObject, RegoSet, type Value } from './values';

/** Key/value pairs of a collection: array index, object key, set member (as both). */
export function* entries(value: Value): Generator<[Value, Value]> {
  if (Array.isArray(value)) for (let i = 0; i < value.length; i++) yield [i, value[i]];
  else if (value instanceof RegoSet) for (const member of value.values()) yield [member, member];
  else if (isObject(value)) for (const key of Object.keys(value)) yield [key, value[key]];
}

/** `value[key]`, or undefined. */
export function index(value: Value, key: Value): Value | undefined {
  if (Array.isArray(value))
    return typeof key === 'number' && Number.isInteger(key) && key >= 0 ? value[key] : undefined;
  if (value instanceof RegoSet) return value.has(key) ? key : undefined;
  if (isObject(value))
    return typeof key === 'string' && Object.prototype.hasOwnProperty.call(value, key) ? value[key] : undefined;
  return undefined;
}

/** `x in xs`: an array's items, a set's members, an object's values. */
export function membership(value: Value, collection: Value): boolean {
  if (collection instanceof RegoSet) return collection.has(value);
  for (const [, item] of entries(collection)) if (equal(item, value)) return true;
  return false;
}

/** Arithmetic on numbers, and `-` as set difference; undefined otherwise (as the reference). */
export function arithmetic(op: string, a: Value, b: Value): Value | undefined {
  if (op === '-' && a instanceof RegoSet && b instanceof RegoSet)
    return new RegoSet(a.values().filter((v) => !b.has(v)));
  if (typeof a !== 'number' || typeof b !== 'number') return undefined;
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return b === 0 ? undefined : a / b;
    case '%':
      return b === 0 || !Number.isInteger(a) || !Number.isInteger(b) ? undefined : a % b;
    default:
      return undefined;
  }
}

/** A binary operator other than `=` and `:=`: comparisons give booleans, the rest is arithmetic. */
export function operate(op: string, left: Value, right: Value): Value | undefined {
  switch (op) {
    case '==':
      return equal(left, right);
    case '!=':
      return !equal(left, right);
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const order = compare(left, right);
      if (order === undefined) return undefined;
      return op === '<' ? order < 0 : op === '<=' ? order <= 0 : op === '>' ? order > 0 : order >= 0;
    }
    default:
      return arithmetic(op, left, right);
  }
}

import type { TenantPattern } from '../patterns/tenant-pattern';
import { isObject, RegoSet, typeName, type Value } from './values';

/** What a built-in may use besides its arguments: the budget (for big results) and a regex cache. */
export interface BuiltinContext {
  charge(steps: number): void;
  pattern(source: string): TenantPattern;
}

type Builtin = { arity: number; fn: (args: Value[], ctx: BuiltinContext) => Value | undefined };

const str = (v: Value): v is string => typeof v === 'string';
const num = (v: Value): v is number => typeof v === 'number';

function strings(fn: (...s: string[]) => Value | undefined, arity: number): Builtin {
  return { arity, fn: (args) => (args.every(str) ? fn(...args) : undefined) };
}

function count(v: Value): number | undefined {
  if (str(v)) return [...v].length;
  if (Array.isArray(v)) return v.length;
  if (v instanceof RegoSet) return v.size;
  if (isObject(v)) return Object.keys(v).length;
  return undefined;
}

function members(v: Value): Value[] | undefined {
  if (Array.isArray(v)) return v;
  if (v instanceof RegoSet) return v.values();
  return undefined;
}

function aggregate(v: Value, reduce: (numbers: number[]) => number | undefined): Value | undefined {
  const list = members(v);
  if (!list || !list.every(num)) return undefined;
  return reduce(list);
}

/** `%s`, `%v` and `%d` (and `%%`), as the reference formats them; extra arguments are ignored. */
export function formatString(format: string, args: Value[]): string {
  let next = 0;
  return format.replace(/%([svd%])/g, (verb, letter: string) => {
    if (letter === '%') return '%';
    if (next >= args.length) return `%!${letter}(MISSING)`;
    const arg = args[next++];
    if (letter === 'd')
      return num(arg) && Number.isInteger(arg) ? String(arg) : `%!d(${typeName(arg)}=${display(arg)})`;
    return display(arg);
  });
}

function display(v: Value): string {
  if (str(v)) return v;
  if (v === null) return 'null';
  if (v instanceof RegoSet) return JSON.stringify(v.values());
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

export const BUILTINS: Record<string, Builtin> = {
  count: { arity: 1, fn: ([v]) => count(v) },
  startswith: strings((s, p) => s.startsWith(p), 2),
  endswith: strings((s, p) => s.endsWith(p), 2),
  contains: strings((s, p) => s.includes(p), 2),
  lower: strings((s) => s.toLowerCase(), 1),
  upper: strings((s) => s.toUpperCase(), 1),
  trim_space: strings((s) => s.trim(), 1),
  indexof: strings((s, p) => s.indexOf(p), 2),
  replace: strings((s, old, by) => s.split(old).join(by), 3),
  split: strings((s, sep) => s.split(sep), 2),
  concat: {
    arity: 2,
    fn: ([sep, list]) => (str(sep) && members(list)?.every(str) ? (members(list) as string[]).join(sep) : undefined),
  },
  substring: {
    arity: 3,
    fn: ([s, start, length]) =>
      str(s) && num(start) && num(length)
        ? [...s].slice(start, length < 0 ? undefined : start + length).join('')
        : undefined,
  },
  sprintf: {
    arity: 2,
    fn: ([format, args]) => (str(format) && Array.isArray(args) ? formatString(format, args) : undefined),
  },
  'regex.match': {
    arity: 2,
    fn: ([pattern, s], ctx) => (str(pattern) && str(s) ? ctx.pattern(pattern).test(s) : undefined),
  },
  to_number: {
    arity: 1,
    fn: ([v]) =>
      num(v) ? v : str(v) && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v === null ? 0 : undefined,
  },
  is_null: { arity: 1, fn: ([v]) => v === null },
  is_string: { arity: 1, fn: ([v]) => str(v) },
  is_number: { arity: 1, fn: ([v]) => num(v) },
  is_boolean: { arity: 1, fn: ([v]) => typeof v === 'boolean' },
  is_array: { arity: 1, fn: ([v]) => Array.isArray(v) },
  is_object: { arity: 1, fn: ([v]) => isObject(v) },
  is_set: { arity: 1, fn: ([v]) => v instanceof RegoSet },
  sum: { arity: 1, fn: ([v]) => aggregate(v, (n) => n.reduce((a, b) => a + b, 0)) },
  max: { arity: 1, fn: ([v]) => aggregate(v, (n) => (n.length ? Math.max(...n) : undefined)) },
  min: { arity: 1, fn: ([v]) => aggregate(v, (n) => (n.length ? Math.min(...n) : undefined)) },
  abs: { arity: 1, fn: ([v]) => (num(v) ? Math.abs(v) : undefined) },
  'array.concat': { arity: 2, fn: ([a, b]) => (Array.isArray(a) && Array.isArray(b) ? [...a, ...b] : undefined) },
  'object.get': {
    arity: 3,
    fn: ([o, k, fallback]) => (isObject(o) && str(k) ? (k in o ? o[k] : fallback) : undefined),
  },
  'numbers.range': {
    arity: 2,
    fn: ([a, b], ctx) => {
      if (!num(a) || !num(b) || !Number.isInteger(a) || !Number.isInteger(b)) return undefined;
      // Charged before it is built: a huge range stops on the budget instead of exhausting memory.
      ctx.charge(Math.abs(b - a) + 1);
      const step = a <= b ? 1 : -1;
      const out: number[] = [];
      for (let i = a; step > 0 ? i <= b : i >= b; i += step) out.push(i);
      return out;
    },
  },
};

/** Names of the reference dashboard's own functions, refused with a clear word. */
export const REFERENCE_ONLY_FUNCTIONS = new Set(['TykAPIGet', 'TykDiff']);

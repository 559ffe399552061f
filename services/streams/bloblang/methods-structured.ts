import { paced, sortedKeys } from './budget';
import { isQueryFailure, QueryError } from './errors';
import { asArray, asText, valueMethod } from './method-kit';
import { param } from './params';
import { getField, indexInto, sliceOf } from './paths';
import { charge, checkSize, errFrom, fail, typeError, type Context, type Query } from './query';
import type { MethodSpec } from './registry';
import {
  DELETE,
  NOTHING,
  bytesToString,
  isNumber,
  isObject,
  newObject,
  toFloat,
  valuesEqual,
  type Result,
  type Value,
  type ValueObject,
} from './values';

const entry = (pairs: Record<string, Value>): ValueObject => Object.assign(newObject(), pairs);

function runEach(q: Query, ctx: Context, value: Value): Result {
  charge(ctx, 1);
  return q.exec(ctx.withValue(value));
}

function asBoolResult(v: Result): boolean {
  return v === true;
}

function dotPath(path: string): string[] {
  return path === '' ? [] : path.split('.').map((s) => s.replace(/~1/g, '.').replace(/~0/g, '~'));
}

function withoutPath(v: Value, path: string[]): Value {
  if (!isObject(v) || path.length === 0) return v;
  const out = newObject();
  for (const k of Object.keys(v)) {
    if (k !== path[0]) out[k] = v[k];
    else if (path.length > 1) out[k] = withoutPath(v[k], path.slice(1));
  }
  return out;
}

/** gabs' merge, which Bento uses: objects merge deeply, colliding values collect into arrays */
function merge(into: Value, from: Value): Value {
  if (isObject(into) && isObject(from)) {
    const out = newObject();
    for (const k of Object.keys(into)) out[k] = into[k];
    for (const k of Object.keys(from)) out[k] = Object.hasOwn(out, k) ? merge(out[k], from[k]) : from[k];
    return out;
  }
  if (Array.isArray(into)) return Array.isArray(from) ? [...into, ...from] : [...into, from];
  return Array.isArray(from) ? [into, ...from] : [into, from];
}

type Sortable = number | bigint | string;

function sortKey(v: Value, what: string): Sortable {
  if (isNumber(v)) return v;
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return bytesToString(v);
  throw new QueryError(`${what}: ${typeError(v, '', 'number', 'string').message}`);
}

function compareKeys(a: Sortable, b: Sortable): number {
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a !== 'string' && typeof b !== 'string') {
    const [x, y] = typeof a === 'bigint' && typeof b === 'bigint' ? [a, b] : [toFloat(a), toFloat(b)];
    return x < y ? -1 : x > y ? 1 : 0;
  }
  throw new QueryError('expected all values to be of the same type (number or string)');
}

type Keyed = readonly [Sortable, Value];
const compareEntries = paced((a: Keyed, b: Keyed) => compareKeys(a[0], b[0]));

function sortByKeys(keys: Sortable[], items: Value[]): Value[] {
  return keys
    .map((k, i) => [k, items[i]] as const)
    .sort(compareEntries)
    .map(([, e]) => e);
}

export const STRUCTURED_METHODS: Record<string, MethodSpec> = {
  map_each: valueMethod([param('query', 'query')], (v, args, ctx) => {
    const q = args.query('query');
    if (Array.isArray(v)) {
      const out: Value[] = [];
      v.forEach((e, i) => {
        let r: Result;
        try {
          r = runEach(q, ctx, e);
        } catch (err) {
          if (isQueryFailure(err))
            fail(`failed to process element ${i}: ${(errFrom(err, q.annotation) as Error).message}`);
          throw err;
        }
        if (r === DELETE) return;
        out.push(r === NOTHING ? e : r);
      });
      return out;
    }
    if (isObject(v)) {
      const out = newObject();
      for (const k of Object.keys(v)) {
        let r: Result;
        try {
          r = runEach(q, ctx, entry({ key: k, value: v[k] }));
        } catch (err) {
          if (isQueryFailure(err))
            fail(`failed to process element ${k}: ${(errFrom(err, q.annotation) as Error).message}`);
          throw err;
        }
        if (r === DELETE) continue;
        out[k] = r === NOTHING ? v[k] : r;
      }
      return out;
    }
    throw typeError(v, '', 'object', 'array');
  }),
  map_each_key: valueMethod([param('query', 'query')], (v, args, ctx) => {
    if (!isObject(v)) throw typeError(v, '', 'object');
    const out = newObject();
    for (const k of Object.keys(v)) {
      const r = runEach(args.query('query'), ctx, k);
      if (r === DELETE) continue;
      if (r === NOTHING) out[k] = v[k];
      else if (typeof r === 'string') out[r] = v[k];
      else fail(`unexpected result from key mapping: ${typeError(r, '', 'string').message}`);
    }
    return out;
  }),
  filter: valueMethod([param('test', 'query')], (v, args, ctx) => {
    const q = args.query('test');
    if (Array.isArray(v)) return v.filter((e) => asBoolResult(runEach(q, ctx, e)));
    if (isObject(v)) {
      const out = newObject();
      for (const k of Object.keys(v)) if (asBoolResult(runEach(q, ctx, entry({ key: k, value: v[k] })))) out[k] = v[k];
      return out;
    }
    throw typeError(v, '', 'array', 'object');
  }),
  any: valueMethod([param('test', 'query')], (v, args, ctx) => {
    const q = args.query('test');
    return asArray(v).some((e, i) => {
      const r = runEach(q, ctx, e);
      if (typeof r !== 'boolean') fail(`element ${i}: ${typeError(r, '', 'bool').message}`);
      return r;
    });
  }),
  all: valueMethod([param('test', 'query')], (v, args, ctx) => {
    const q = args.query('test');
    const items = asArray(v);
    return (
      items.length > 0 &&
      items.every((e, i) => {
        const r = runEach(q, ctx, e);
        if (typeof r !== 'boolean') fail(`element ${i}: ${typeError(r, '', 'bool').message}`);
        return r;
      })
    );
  }),
  fold: valueMethod([param('initial', 'any'), param('query', 'query')], (v, args, ctx) => {
    let tally: Value = args.value('initial', ctx);
    const q = args.query('query');
    for (const e of asArray(v)) {
      const r = runEach(q, ctx, entry({ tally, value: e }));
      if (typeof r === 'symbol') throw typeError(r, q.annotation);
      tally = r;
      if (typeof tally === 'string') checkSize(tally.length, ctx);
    }
    return tally;
  }),
  keys: valueMethod([], (v) => {
    if (!isObject(v)) throw typeError(v, '', 'object');
    return sortedKeys(v);
  }),
  values: valueMethod([], (v) => {
    if (!isObject(v)) throw typeError(v, '', 'object');
    return sortedKeys(v).map((k) => v[k]);
  }),
  key_values: valueMethod([], (v) => {
    if (!isObject(v)) throw typeError(v, '', 'object');
    return sortedKeys(v).map((k) => entry({ key: k, value: v[k] }));
  }),
  enumerated: valueMethod([], (v) => asArray(v).map((e, i) => entry({ index: BigInt(i), value: e }))),
  without: valueMethod([param('paths', 'string', { variadic: true })], (v, args, ctx) => {
    if (!isObject(v)) throw typeError(v, '', 'object');
    let out: Value = v;
    for (const q of args.rest) out = withoutPath(out, dotPath(asText(q.exec(ctx) as Value)));
    return out;
  }),
  merge: valueMethod([param('with', 'any')], (v, args, ctx) => merge(v, args.value('with', ctx))),
  exists: valueMethod([param('path', 'string')], (v, args, ctx) => {
    let node: Value = v;
    for (const segment of dotPath(args.string('path', ctx))) {
      if (isObject(node) && Object.hasOwn(node, segment)) node = node[segment];
      else if (Array.isArray(node) && /^[0-9]+$/.test(segment) && Number(segment) < node.length)
        node = node[Number(segment)];
      else return false;
    }
    return true;
  }),
  get: valueMethod([param('path', 'string')], (v, args, ctx) =>
    dotPath(args.string('path', ctx)).reduce<Value>((node, s) => getField(node, s), v),
  ),
  index: valueMethod([param('index', 'int')], (v, args, ctx) => indexInto(v, args.int('index', ctx))),
  slice: valueMethod([param('low', 'int'), param('high', 'int', { optional: true })], (v, args, ctx) =>
    sliceOf(v, Number(args.int('low', ctx)), args.has('high') ? Number(args.int('high', ctx)) : undefined, ''),
  ),
  append: valueMethod([param('values', 'any', { variadic: true })], (v, args, ctx) => {
    const items = asArray(v);
    const extra = args.rest.map((q) => q.exec(ctx)).filter((e): e is Value => typeof e !== 'symbol');
    if (items.length + extra.length > ctx.run.options.limits.maxValueNodes) fail('array exceeds the element limit');
    return [...items, ...extra];
  }),
  concat: valueMethod([param('values', 'any', { variadic: true })], (v, args, ctx) => {
    const out = [...asArray(v)];
    for (const q of args.rest) out.push(...asArray(q.exec(ctx) as Value));
    return out;
  }),
  flatten: valueMethod([], (v) => asArray(v).flatMap((e) => (Array.isArray(e) ? e : [e]))),
  sort: valueMethod([param('compare', 'query', { optional: true })], (v, args, ctx) => {
    const items = [...asArray(v)];
    if (args.has('compare')) {
      const q = args.query('compare');
      return items.sort((a, b) => {
        if (runEach(q, ctx, entry({ left: a, right: b })) === true) return -1;
        return runEach(q, ctx, entry({ left: b, right: a })) === true ? 1 : 0;
      });
    }
    const keys = items.map((e, i) => sortKey(e, `index ${i}`));
    return sortByKeys(keys, items);
  }),
  sort_by: valueMethod([param('query', 'query')], (v, args, ctx) => {
    const q = args.query('query');
    const items = asArray(v);
    const keys = items.map((e, i) => {
      const k = runEach(q, ctx, e);
      if (typeof k === 'symbol') throw typeError(k, q.annotation);
      return sortKey(k, `sort_by element ${i}`);
    });
    return sortByKeys(keys, items);
  }),
  unique: valueMethod([param('emit', 'query', { optional: true })], (v, args, ctx) => {
    const emit = args.has('emit') ? args.query('emit') : null;
    const seenStrings = new Set<string>();
    const seenNumbers = new Set<number>();
    return asArray(v).filter((e, i) => {
      const key = emit ? runEach(emit, ctx, e) : e;
      if (typeof key === 'string') return !seenStrings.has(key) && !!seenStrings.add(key);
      if (key instanceof Uint8Array)
        return !seenStrings.has(bytesToString(key)) && !!seenStrings.add(bytesToString(key));
      if (isNumber(key)) return !seenNumbers.has(toFloat(key)) && !!seenNumbers.add(toFloat(key));
      return fail(`index ${i}: ${typeError(key, '', 'string', 'number').message}`);
    });
  }),
  find: valueMethod([param('value', 'any')], (v, args, ctx) => {
    const needle = args.value('value', ctx);
    return BigInt(asArray(v).findIndex((e) => valuesEqual(e, needle)));
  }),
  find_all: valueMethod([param('value', 'any')], (v, args, ctx) => {
    const needle = args.value('value', ctx);
    return asArray(v).flatMap((e, i) => (valuesEqual(e, needle) ? [BigInt(i)] : []));
  }),
  find_by: valueMethod([param('query', 'query')], (v, args, ctx) =>
    BigInt(asArray(v).findIndex((e) => runEach(args.query('query'), ctx, e) === true)),
  ),
  find_all_by: valueMethod([param('query', 'query')], (v, args, ctx) =>
    asArray(v).flatMap((e, i) => (runEach(args.query('query'), ctx, e) === true ? [BigInt(i)] : [])),
  ),
  contains_key: valueMethod(
    [param('key', 'string')],
    (v, args, ctx) => isObject(v) && Object.hasOwn(v, args.string('key', ctx)),
  ),
};

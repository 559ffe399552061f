import { QueryError } from './errors';
import { execValue, fail, typeError, type Query } from './query';
import { bytesToString, isNumber, isObject, typeOf, floatToInt, type Value } from './values';

export function literal(value: Value): Query {
  return { annotation: `${typeOf(value)} literal`, literal: { value }, exec: () => value };
}

/** A field path after `this`, `root`, a lambda name or any query: `this.a."b.c".0` */
interface PathQuery extends Query {
  readonly base: Query;
  readonly path: string[];
}

const isPathQuery = (q: Query): q is PathQuery => 'path' in q && 'base' in q;

/** One path segment of a value: an object's field, an array's index, otherwise null. */
export function getField(v: Value, segment: string): Value {
  if (isObject(v)) return Object.hasOwn(v, segment) ? v[segment] : null;
  if (Array.isArray(v) && /^[0-9]+$/.test(segment)) return v[Number(segment)] ?? null;
  return null;
}

/** `this`, `root` and lambda names carry their name, so errors say "field `this.a.b`" */
export type FieldBase = Query & { readonly fieldRoot: string };

export function getPath(target: Query, segments: string[]): Query {
  const base = isPathQuery(target) ? target.base : target;
  const path = isPathQuery(target) ? [...target.path, ...segments] : segments;
  const shown = path.map((s) => s.replace(/~/g, '~0').replace(/\./g, '~1')).join('.');
  const fieldRoot = (base as Partial<FieldBase>).fieldRoot;
  const isThis = fieldRoot === 'this';
  let annotation = base.annotation;
  if (fieldRoot !== undefined)
    annotation =
      path.length === 0 && fieldRoot !== base.annotation
        ? base.annotation
        : `field \`${fieldRoot}${shown ? `.${shown}` : ''}\``;
  if (fieldRoot !== undefined && path.length === 0)
    annotation = fieldRoot === 'this' || fieldRoot === 'root' ? fieldRoot : annotation;
  const query: PathQuery = {
    base,
    path,
    annotation,
    exec(ctx) {
      let v: Value = isThis ? ctx.current(shown) : execValue(base, ctx);
      for (const segment of path) v = getField(v, segment);
      return v;
    },
  };
  return query;
}

/** `target[i]`: arrays, strings and bytes, negative indexes from the end */
export function indexValue(target: Query, index: Query): Query {
  return {
    annotation: 'index',
    exec(ctx) {
      const v = execValue(target, ctx);
      const i = execValue(index, ctx);
      if (!isNumber(i)) throw new QueryError(`index: ${typeError(i, '', 'number').message}`);
      return indexInto(v, typeof i === 'bigint' ? i : floatToInt(i));
    },
  };
}

export function indexInto(v: Value, index: bigint): Value {
  let length: number;
  if (typeof v === 'string' || v instanceof Uint8Array || Array.isArray(v)) length = v.length;
  else throw typeError(v, '', 'array', 'string');
  let i = Number(index);
  if (i < 0) i += length;
  if (i < 0 || i >= length) fail(`index ${i} out of bounds for length ${length}`);
  if (typeof v === 'string') return bytesToString(Buffer.from(v).subarray(i, i + 1));
  if (v instanceof Uint8Array) return BigInt(v[i]);
  return v[i];
}

/** `target[start:end:step]`: negative bounds count from the end, as in Python */
export function sliceValue(target: Query, start?: Query, end?: Query, step?: Query): Query {
  return {
    annotation: 'slice',
    exec(ctx) {
      const v = execValue(target, ctx);
      const bound = (q: Query | undefined) => {
        if (!q) return undefined;
        const b = execValue(q, ctx);
        if (!isNumber(b)) throw typeError(b, q.annotation, 'number');
        return Number(b);
      };
      const by = bound(step) ?? 1;
      if (by === 0) fail('slice step cannot be zero');
      if (by === 1) return sliceOf(v, bound(start) ?? 0, bound(end), target.annotation);
      return steppedSlice(v, bound(start), bound(end), by, target.annotation);
    },
  };
}

function steppedSlice(v: Value, low: number | undefined, high: number | undefined, step: number, from: string): Value {
  if (!(typeof v === 'string' || v instanceof Uint8Array || Array.isArray(v)))
    throw typeError(v, from, 'array', 'string');
  const items: Value[] | string[] =
    typeof v === 'string' ? [...v] : Array.isArray(v) ? v : [...v].map((b) => BigInt(b));
  const n = items.length;
  const clamp = (i: number, lo: number, hi: number) => Math.min(Math.max(i < 0 ? i + n : i, lo), hi);
  const out: Array<Value | string> = [];
  if (step > 0) {
    for (let i = low === undefined ? 0 : clamp(low, 0, n); i < (high === undefined ? n : clamp(high, 0, n)); i += step)
      out.push(items[i]);
  } else {
    for (
      let i = low === undefined ? n - 1 : clamp(low, -1, n - 1);
      i > (high === undefined ? -1 : clamp(high, -1, n - 1));
      i += step
    )
      out.push(items[i]);
  }
  return typeof v === 'string' ? (out as string[]).join('') : out;
}

/** Bento's slice: negative bounds count from the end, an end past the length is clipped */
export function sliceOf(v: Value, low: number, high: number | undefined, from: string): Value {
  if (!(typeof v === 'string' || v instanceof Uint8Array || Array.isArray(v)))
    throw typeError(v, from, 'array', 'string');
  const length = typeof v === 'string' ? Buffer.byteLength(v) : v.length;
  let start = low < 0 ? length + low : low;
  let stop = high === undefined ? length : high < 0 ? length + high : Math.min(high, length);
  start = Math.max(0, start);
  stop = Math.max(0, stop);
  if (start > stop) fail(`lower slice bound ${start} must be lower than or equal to upper bound (${stop})`);
  if (typeof v === 'string') return bytesToString(Buffer.from(v).subarray(start, stop));
  return v.slice(start, stop);
}

import { pace } from './budget';
import { asArray, asText, textMethod, valueMethod } from './method-kit';
import { param } from './params';
import { matcherOf, pattern } from './methods-strings';
import { charge, fail, typeError, type Context, type Query } from './query';
import type { MethodSpec } from './registry';
import { DELETE, NOTHING, cloneValue, isObject, newObject, type Result, type Value, type ValueObject } from './values';

/** Methods beyond the list that the reference documents and streams often use. */

function dotPath(path: string): string[] {
  return path === '' ? [] : path.split('.').map((s) => s.replace(/~1/g, '.').replace(/~0/g, '~'));
}

/** a copy of `v` with `value` at `path` (objects created on the way; deleted() removes) */
function setAt(v: Value, path: string[], value: Result): Value {
  if (path.length === 0) return value === DELETE || value === NOTHING ? null : value;
  const [head, ...rest] = path;
  if (Array.isArray(v) && /^[0-9]+$/.test(head) && Number(head) < v.length) {
    const out = [...v];
    if (rest.length === 0 && value === DELETE) out.splice(Number(head), 1);
    else out[Number(head)] = setAt(v[Number(head)], rest, value);
    return out;
  }
  const out = newObject();
  if (isObject(v)) Object.assign(out, v);
  else if (v !== null) fail(`unable to set path ${path.join('.')}: value is a non-object type (${typeof v})`);
  if (rest.length === 0 && value === DELETE) delete out[head];
  else out[head] = setAt(Object.hasOwn(out, head) ? out[head] : null, rest, value);
  return out;
}

/** Bento's assign: like merge, but a value in the argument replaces instead of collecting */
function assignInto(into: Value, from: Value): Value {
  if (isObject(into) && isObject(from)) {
    const out = newObject();
    Object.assign(out, into);
    for (const k of Object.keys(from)) out[k] = Object.hasOwn(out, k) ? assignInto(out[k], from[k]) : from[k];
    return out;
  }
  if (Array.isArray(into) && Array.isArray(from)) return [...into, ...from];
  return from;
}

function collapse(v: Value, prefix: string, out: ValueObject, includeEmpty: boolean): void {
  const entries: Array<[string, Value]> = Array.isArray(v)
    ? v.map((e, i) => [String(i), e])
    : isObject(v)
      ? Object.entries(v)
      : [];
  if ((Array.isArray(v) || isObject(v)) && entries.length > 0) {
    for (const [k, e] of entries) collapse(e, prefix ? `${prefix}.${k}` : k, out, includeEmpty);
    return;
  }
  if (!includeEmpty && (Array.isArray(v) || isObject(v))) return;
  out[prefix] = v;
}

const each = (q: Query, ctx: Context, v: Value): boolean => {
  charge(ctx, 1);
  return q.exec(ctx.withValue(v)) === true;
};

export const EXTRA_METHODS: Record<string, MethodSpec> = {
  array: valueMethod([], (v) => (Array.isArray(v) ? v : [v])),
  set: valueMethod([param('path', 'string'), param('value', 'any')], (v, args, ctx) =>
    setAt(cloneValue(v), dotPath(args.string('path', ctx)), args.raw('value', ctx) ?? null),
  ),
  assign: valueMethod([param('with', 'any')], (v, args, ctx) => assignInto(v, args.value('with', ctx))),
  collapse: valueMethod([param('include_empty', 'bool', { default: false })], (v, args, ctx) => {
    const out = newObject();
    collapse(v, '', out, args.bool('include_empty', ctx));
    return out;
  }),
  explode: valueMethod([param('path', 'string')], (v, args, ctx) => {
    const path = dotPath(args.string('path', ctx));
    let target: Value = v;
    for (const s of path) target = isObject(target) && Object.hasOwn(target, s) ? target[s] : null;
    if (Array.isArray(target)) return target.map((e) => setAt(v, path, e));
    if (isObject(target)) {
      const out = newObject();
      for (const k of Object.keys(target)) out[k] = setAt(v, path, target[k]);
      return out;
    }
    throw typeError(target, '', 'object', 'array');
  }),
  split_by: valueMethod([param('predicate', 'query')], (v, args, ctx) => {
    const q = args.query('predicate');
    if (typeof v === 'string') {
      const parts: string[] = [''];
      for (const ch of v) {
        if (each(q, ctx, ch)) parts.push('');
        else parts[parts.length - 1] += ch;
      }
      return parts.filter((p) => p !== '');
    }
    const groups: Value[][] = [[]];
    for (const e of asArray(v)) {
      if (each(q, ctx, e)) groups.push([]);
      else groups[groups.length - 1].push(e);
    }
    return groups.filter((g) => g.length > 0);
  }),
  re_find_all_submatch: textMethod([param('pattern', 'string')], (s, args, ctx) => {
    const re = pattern(args.string('pattern', ctx));
    const m = matcherOf(re, s);
    const out: Value[] = [];
    while (m.find()) {
      pace();
      out.push(Array.from({ length: re.groupCount() + 1 }, (_, i) => m.group(i) ?? ''));
    }
    return out;
  }),
  re_find_all_object: textMethod([param('pattern', 'string')], (s, args, ctx) => {
    const re = pattern(args.string('pattern', ctx));
    const names = Object.entries(re.namedGroups());
    const m = matcherOf(re, s);
    const out: Value[] = [];
    while (m.find()) {
      pace();
      const found = newObject();
      found['0'] = m.group() ?? '';
      for (const [name, index] of names) found[name] = m.group(index) ?? '';
      out.push(found);
    }
    return out;
  }),
  filepath_join: valueMethod([], (v) =>
    asArray(v)
      .map(asText)
      .filter((p) => p !== '')
      .join('/')
      .replace(/\/+/g, '/'),
  ),
};

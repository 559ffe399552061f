import { RE2JS } from 're2js';
import { pace, sortedKeys } from './budget';
import { LimitError, QueryError } from './errors';
import { asText, textMethod, valueMethod } from './method-kit';
import { param } from './params';
import { checkSize, fail, typeError } from './query';
import type { MethodSpec } from './registry';
import { bytesToString, isObject, newObject, toText, valuesEqual, type Value } from './values';

/**
 * Tenant patterns run on re2js (RE2 semantics like Go's regexp, linear time), compiled once per
 * distinct source; patterns in mappings are nearly always literals.
 */
const patternCache = new Map<string, RE2JS>();

export function pattern(source: string): RE2JS {
  let compiled = patternCache.get(source);
  if (!compiled) {
    try {
      compiled = RE2JS.compile(source);
    } catch (err) {
      throw new QueryError(`error parsing regexp: ${(err as Error).message}`);
    }
    if (patternCache.size > 1000) patternCache.clear();
    patternCache.set(source, compiled);
  }
  return compiled;
}

/**
 * The longest input a pattern runs over. RE2 is linear in it, but one match is native work the
 * time budget can not interrupt, and a hard pattern costs a few hundred ns per character.
 */
export const MAX_PATTERN_INPUT = 256 * 1024;

/** A matcher over `input`, refused past MAX_PATTERN_INPUT characters. */
export function matcherOf(re: RE2JS, input: string): ReturnType<RE2JS['matcher']> {
  if (input.length > MAX_PATTERN_INPUT) {
    const limit = `the limit of ${MAX_PATTERN_INPUT}`;
    throw new LimitError(`regular expression input of ${input.length} characters exceeds ${limit}`);
  }
  return re.matcher(input);
}

/** the first `max` characters (code points) of `s`, paced: a string may be millions long */
function codePoints(s: string, max: number): string[] {
  const out: string[] = [];
  for (const c of s) {
    if (out.length >= max) break;
    pace();
    out.push(c);
  }
  return out;
}

/** how often `d` (not empty) occurs in `s`, paced */
function occurrences(s: string, d: string): number {
  let count = 0;
  for (let at = s.indexOf(d); at >= 0; at = s.indexOf(d, at + d.length)) {
    pace();
    count++;
  }
  return count;
}

/** String.prototype.split(d, max), paced */
function pieces(s: string, d: string, max: number): string[] {
  const out: string[] = [];
  let from = 0;
  while (out.length < max) {
    pace();
    const at = s.indexOf(d, from);
    if (at < 0) {
      out.push(s.slice(from));
      break;
    }
    out.push(s.slice(from, at));
    from = at + d.length;
  }
  return out;
}

/** Go's Regexp.Expand: `$1`, `${1}`, `$name`, `${name}` (a name takes every word character), `$$` */
function expandReplacement(template: string, groups: Array<string | undefined>, names: Record<string, number>): string {
  return template.replace(
    /\$(\$|\{([A-Za-z0-9_]+)\}|([A-Za-z0-9_]+))/g,
    (_all, token: string, braced?: string, bare?: string) => {
      if (token === '$') return '$';
      const name = braced ?? bare ?? '';
      const index = /^[0-9]+$/.test(name) ? Number(name) : names[name];
      return index === undefined ? '' : (groups[index] ?? '');
    },
  );
}

function replaceAllMatches(input: string, source: string, replacement: string): string {
  const re = pattern(source);
  const names = re.namedGroups();
  const groupCount = re.groupCount();
  return matcherOf(re, input).replaceAll((...args: unknown[]) => {
    pace();
    return expandReplacement(replacement, args.slice(0, groupCount + 1) as string[], names);
  });
}

function findAll(input: string, source: string): string[] {
  const m = matcherOf(pattern(source), input);
  const out: string[] = [];
  while (m.find()) {
    pace();
    out.push(m.group() ?? '');
  }
  return out;
}

const CUTSET_SPACE = ' \t\n\r\v\f\u0085\u00a0';

function trimCutset(s: string, cutset: string, left: boolean, right: boolean): string {
  let start = 0;
  let end = s.length;
  if (left) while (start < end && cutset.includes(s[start])) start++;
  if (right) while (end > start && cutset.includes(s[end - 1])) end--;
  return s.slice(start, end);
}

/** Bento's format: Go's fmt verbs, the common ones (%v %s %d %f %q %x %t %%) */
function goFormat(template: string, args: Value[]): string {
  let i = 0;
  return template.replace(
    /%([-+ 0#]*)(\d*)(?:\.(\d+))?([vsdfqxXtTeg%])/g,
    (_whole, flags: string, width: string, precision: string | undefined, verb: string) => {
      if (verb === '%') return '%';
      if (i >= args.length) return `%!${verb}(MISSING)`;
      const arg = args[i++];
      let out: string;
      switch (verb) {
        case 'd':
          out =
            typeof arg === 'bigint'
              ? arg.toString()
              : typeof arg === 'number'
                ? `%!d(float64=${toText(arg)})`
                : `%!d(${typeof arg}=${toText(arg)})`;
          break;
        case 'f':
        case 'e':
        case 'g':
          if (typeof arg !== 'number' && typeof arg !== 'bigint') out = `%!${verb}(${toText(arg)})`;
          else if (verb === 'f') out = Number(arg).toFixed(precision === undefined ? 6 : Number(precision));
          else
            out =
              verb === 'e'
                ? Number(arg)
                    .toExponential(precision === undefined ? 6 : Number(precision))
                    .replace(/e([+-])(\d)$/, 'e$10$2')
                : toText(Number(arg));
          break;
        case 'q':
          out = JSON.stringify(toText(arg));
          break;
        case 'x':
        case 'X': {
          const hex = typeof arg === 'bigint' ? arg.toString(16) : Buffer.from(toText(arg)).toString('hex');
          out = verb === 'X' ? hex.toUpperCase() : hex;
          break;
        }
        case 't':
          out = typeof arg === 'boolean' ? String(arg) : `%!t(${toText(arg)})`;
          break;
        case 'T':
          out = goTypeName(arg);
          break;
        default:
          out = formatV(arg);
      }
      if (width)
        out = flags.includes('-')
          ? out.padEnd(Number(width))
          : out.padStart(Number(width), flags.includes('0') && verb !== 's' ? '0' : ' ');
      return out;
    },
  );
}

function goTypeName(v: Value): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'bigint') return 'int64';
  if (typeof v === 'number') return 'float64';
  if (typeof v === 'boolean') return 'bool';
  if (v === null) return '<nil>';
  if (Array.isArray(v)) return '[]interface {}';
  return isObject(v) ? 'map[string]interface {}' : 'string';
}

/** Go's %v for decoded JSON values: maps print as map[k:v], slices as [a b] */
function formatV(v: Value): string {
  if (v === null) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(formatV).join(' ')}]`;
  if (isObject(v))
    return `map[${sortedKeys(v)
      .map((k) => `${k}:${formatV(v[k])}`)
      .join(' ')}]`;
  return toText(v);
}

export const STRING_METHODS: Record<string, MethodSpec> = {
  uppercase: textMethod([], (s) => s.toUpperCase()),
  lowercase: textMethod([], (s) => s.toLowerCase()),
  capitalize: textMethod([], (s) =>
    s.replace(/(^|[^\p{L}\p{N}_'])(\p{L})/gu, (_m, sep: string, ch: string) => sep + ch.toUpperCase()),
  ),
  trim: textMethod([param('cutset', 'string', { optional: true })], (s, args, ctx) =>
    args.has('cutset')
      ? trimCutset(s, args.string('cutset', ctx), true, true)
      : trimCutset(s, CUTSET_SPACE, true, true),
  ),
  trim_prefix: textMethod([param('prefix', 'string')], (s, args, ctx) => {
    const p = args.string('prefix', ctx);
    return s.startsWith(p) ? s.slice(p.length) : s;
  }),
  trim_suffix: textMethod([param('suffix', 'string')], (s, args, ctx) => {
    const p = args.string('suffix', ctx);
    return p && s.endsWith(p) ? s.slice(0, -p.length) : s;
  }),
  replace_all: textMethod([param('old', 'string'), param('new', 'string')], (s, args, ctx) => {
    const old = args.string('old', ctx);
    const replacement = args.string('new', ctx);
    if (old === '') {
      const chars = codePoints(s, Infinity);
      const out = replacement + chars.join(replacement) + (chars.length ? replacement : '');
      checkSize(out.length, ctx);
      return out;
    }
    const count = occurrences(s, old);
    checkSize(s.length + count * Math.max(0, replacement.length - old.length), ctx);
    return s.replaceAll(old, () => replacement);
  }),
  replace_all_many: textMethod([param('values', 'any')], (s, args, ctx) => {
    const values = args.value('values', ctx);
    if (!Array.isArray(values)) throw typeError(values, '', 'array');
    if (values.length % 2 !== 0)
      fail(`invalid arg, replacements should be in pairs and must therefore be even: ${values.length}`);
    const pairs: Array<[string, string]> = [];
    for (let i = 0; i < values.length; i += 2) pairs.push([asText(values[i]), asText(values[i + 1])]);
    let out = '';
    for (let i = 0; i < s.length;) {
      const hit = pairs.find(([old]) => old !== '' && s.startsWith(old, i));
      if (hit) {
        out += hit[1];
        i += hit[0].length;
      } else out += s[i++];
      checkSize(out.length, ctx);
    }
    return out;
  }),
  split: valueMethod([param('delimiter', 'any')], (v, args, ctx) => {
    if (Array.isArray(v)) {
      // arrays split on elements equal to the delimiter
      const delimiter = args.value('delimiter', ctx);
      const groups: Value[][] = [[]];
      for (const e of v) {
        if (valuesEqual(e, delimiter)) groups.push([]);
        else groups[groups.length - 1].push(e);
      }
      return groups.filter((g) => g.length > 0);
    }
    const s = asText(v);
    const d = asText(args.value('delimiter', ctx));
    const max = ctx.run.options.limits.maxValueNodes;
    const parts = d === '' ? codePoints(s, max + 1) : pieces(s, d, max + 1);
    if (parts.length > max) throw new LimitError(`split gives more than the limit of ${max} elements`);
    return v instanceof Uint8Array ? parts.map((p) => new Uint8Array(Buffer.from(p))) : parts;
  }),
  join: valueMethod([param('delimiter', 'string', { default: '' })], (v, args, ctx) => {
    if (!Array.isArray(v)) throw typeError(v, '', 'array');
    const delimiter = args.string('delimiter', ctx);
    const parts = v.map((e, i) => {
      if (typeof e === 'string') return e;
      if (e instanceof Uint8Array) return bytesToString(e);
      throw new QueryError(`failed to join element ${i}: ${typeError(e, '', 'string').message}`);
    });
    const out = parts.join(delimiter);
    checkSize(out.length, ctx);
    return out;
  }),
  repeat: textMethod([param('count', 'int')], (s, args, ctx) => {
    const count = Number(args.int('count', ctx));
    if (count < 0) fail('invalid count, must be greater than or equal to zero');
    checkSize(s.length * count, ctx);
    return s.repeat(count);
  }),
  escape_html: textMethod([], (s) =>
    s.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&#34;'),
  ),
  unescape_html: textMethod([], (s) =>
    s.replace(/&(#[0-9]+|#x[0-9a-fA-F]+|amp|lt|gt|quot|apos|nbsp);/g, (_m, e: string) => {
      if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
      return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' } as Record<string, string>)[e];
    }),
  ),
  has_prefix: textMethod([param('value', 'string')], (s, args, ctx) => s.startsWith(args.string('value', ctx))),
  has_suffix: textMethod([param('value', 'string')], (s, args, ctx) => s.endsWith(args.string('value', ctx))),
  index_of: textMethod([param('value', 'string')], (s, args, ctx) =>
    BigInt(Buffer.from(s).indexOf(Buffer.from(args.string('value', ctx)))),
  ),
  reverse: valueMethod([], (v) => {
    if (Array.isArray(v)) return [...v].reverse();
    return codePoints(asText(v), Infinity).reverse().join('');
  }),
  quote: textMethod([], (s) => JSON.stringify(s)),
  unquote: textMethod([], (s) => {
    try {
      const parsed: unknown = JSON.parse(s);
      if (typeof parsed === 'string') return parsed;
    } catch {
      // falls through to the error below
    }
    return fail('invalid syntax');
  }),
  contains: valueMethod([param('value', 'any')], (v, args, ctx) => {
    const needle = args.value('value', ctx);
    if (typeof v === 'string' || v instanceof Uint8Array) return asText(v).includes(asText(needle));
    if (Array.isArray(v)) return v.some((e) => valuesEqual(e, needle));
    if (isObject(v)) return Object.keys(v).some((k) => valuesEqual(v[k], needle));
    throw typeError(v, '', 'string', 'array', 'object');
  }),
  format: textMethod([param('args', 'any', { variadic: true })], (s, args, ctx) => {
    const out = goFormat(
      s,
      args.rest.map((q) => {
        const v = q.exec(ctx);
        return typeof v === 'symbol' ? null : v;
      }),
    );
    checkSize(out.length, ctx);
    return out;
  }),
  re_match: textMethod([param('pattern', 'string')], (s, args, ctx) =>
    matcherOf(pattern(args.string('pattern', ctx)), s).find(),
  ),
  re_replace_all: textMethod([param('pattern', 'string'), param('value', 'string')], (s, args, ctx) => {
    const out = replaceAllMatches(s, args.string('pattern', ctx), args.string('value', ctx));
    checkSize(out.length, ctx);
    return out;
  }),
  re_replace: textMethod([param('pattern', 'string'), param('value', 'string')], (s, args, ctx) =>
    replaceAllMatches(s, args.string('pattern', ctx), args.string('value', ctx)),
  ),
  re_find_all: textMethod([param('pattern', 'string')], (s, args, ctx) => findAll(s, args.string('pattern', ctx))),
  re_find_object: textMethod([param('pattern', 'string')], (s, args, ctx) => {
    const re = pattern(args.string('pattern', ctx));
    const m = matcherOf(re, s);
    const out = newObject();
    if (!m.find()) return out;
    out['0'] = m.group() ?? '';
    for (const [name, index] of Object.entries(re.namedGroups())) out[name] = m.group(index) ?? '';
    return out;
  }),
  escape_url_query: textMethod([], (s) =>
    encodeURIComponent(s)
      .replace(/%20/g, '+')
      .replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase()),
  ),
  unescape_url_query: textMethod([], (s) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      return fail(`invalid URL escape in ${JSON.stringify(s)}`);
    }
  }),
};

import { createHash, createHmac } from 'node:crypto';
import { isQueryFailure } from './errors';
import { asText, valueMethod } from './method-kit';
import { param } from './params';
import { parseJson } from './parse-json';
import { charge, checkSize, errFrom, fail, typeError } from './query';
import type { MethodSpec } from './registry';
import { NOTHING, floatToInt, isObject, toJson, toText, typeOf, type Result, type Value } from './values';

const GO_FLOAT = /^[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf|infinity|nan)$/i;

function parseGoFloat(s: string): number {
  if (!GO_FLOAT.test(s.replace(/_/g, ''))) fail(`strconv.ParseFloat: parsing ${JSON.stringify(s)}: invalid syntax`);
  const lower = s.toLowerCase().replace(/^\+/, '');
  if (lower.endsWith('inf') || lower.endsWith('infinity')) return lower.startsWith('-') ? -Infinity : Infinity;
  if (lower === 'nan') return NaN;
  return Number(s.replace(/_/g, ''));
}

function toNumber(v: Value): number {
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number') return v;
  if (typeof v === 'string' || v instanceof Uint8Array) return parseGoFloat(asText(v));
  throw typeError(v, '', 'number');
}

function toBool(v: Value): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'bigint') return v !== 0n;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string' || v instanceof Uint8Array) {
    const s = asText(v);
    if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
    if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
    fail(`strconv.ParseBool: parsing ${JSON.stringify(s)}: invalid syntax`);
  }
  throw typeError(v, '', 'bool');
}

function toInt64(v: Value): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') {
    if (!Number.isInteger(v)) fail(`value ${toText(v)} is not an integer`);
    return floatToInt(v);
  }
  if (typeof v === 'string' || v instanceof Uint8Array) {
    const s = asText(v);
    if (!/^[+-]?[0-9]+$/.test(s)) fail(`strconv.ParseInt: parsing ${JSON.stringify(s)}: invalid syntax`);
    const n = BigInt(s);
    if (BigInt.asIntN(64, n) !== n) fail(`strconv.ParseInt: parsing ${JSON.stringify(s)}: value out of range`);
    return n;
  }
  throw typeError(v, '', 'number');
}

function bytesOf(v: Value): Buffer {
  if (typeof v === 'string') return Buffer.from(v);
  if (v instanceof Uint8Array) return Buffer.from(v);
  throw typeError(v, '', 'string');
}

const ENCODERS: Record<string, { encode(b: Buffer): string; decode(s: string): Buffer }> = {
  base64: { encode: (b) => b.toString('base64'), decode: (s) => strictBase64(s, /^[A-Za-z0-9+/]*={0,2}$/, 'base64') },
  base64url: {
    encode: (b) => b.toString('base64').replace(/\+/g, '-').replace(/\//g, '_'),
    decode: (s) => strictBase64(s, /^[A-Za-z0-9_-]*={0,2}$/, 'base64url'),
  },
  base64rawurl: {
    encode: (b) => b.toString('base64url'),
    decode: (s) => strictBase64(s, /^[A-Za-z0-9_-]*$/, 'base64url'),
  },
  hex: {
    encode: (b) => b.toString('hex'),
    decode: (s) => {
      if (!/^([0-9a-fA-F]{2})*$/.test(s))
        fail(s.length % 2 ? 'encoding/hex: odd length hex string' : 'encoding/hex: invalid byte');
      return Buffer.from(s, 'hex');
    },
  },
};

function strictBase64(s: string, shape: RegExp, encoding: BufferEncoding): Buffer {
  const padded = shape.source.includes('=') ? s.length % 4 === 0 : s.length % 4 !== 1;
  if (!shape.test(s) || !padded)
    fail('illegal base64 data at input byte ' + Math.max(0, s.search(/[^A-Za-z0-9+/_=-]/)));
  return Buffer.from(s, encoding);
}

const HASHES: Record<string, string> = { sha1: 'sha1', sha256: 'sha256', sha512: 'sha512', md5: 'md5' };
const HMACS: Record<string, string> = { hmac_sha1: 'sha1', hmac_sha256: 'sha256', hmac_sha512: 'sha512' };

export const GENERAL_METHODS: Record<string, MethodSpec> = {
  catch: {
    params: [param('fallback', 'query')],
    create: (target, args) => (ctx) => {
      try {
        return target.exec(ctx);
      } catch (err) {
        if (!isQueryFailure(err)) throw err;
        return args.query('fallback').exec(ctx.withValue(err.message));
      }
    },
  },
  or: {
    params: [param('fallback', 'query')],
    create: (target, args) => (ctx) => {
      let v: Result = null;
      try {
        v = target.exec(ctx);
      } catch (err) {
        if (!isQueryFailure(err)) throw err;
      }
      return v === null || v === NOTHING ? args.query('fallback').exec(ctx) : v;
    },
  },
  apply: {
    params: [param('mapping', 'string')],
    create: (target, args) => (ctx) => {
      const v = target.exec(ctx);
      const name = args.string('mapping', ctx);
      charge(ctx, 1);
      const program = ctx.run.maps.get(name);
      if (!program) fail(`map ${name} was not found`);
      const root: { value: Result } = { value: NOTHING };
      try {
        program.run(ctx.withRoot(root, typeof v === 'symbol' ? null : v));
      } catch (err) {
        throw errFrom(err, target.annotation);
      }
      return root.value;
    },
  },
  from_all: {
    params: [],
    create: (target) => (ctx) => {
      const v = target.exec(ctx);
      return [typeof v === 'symbol' ? null : v];
    },
  },
  from: {
    params: [param('index', 'int')],
    create: (target, args) => (ctx) => {
      const index = args.int('index', ctx);
      if (index !== 0n && index !== -1n) return null;
      return target.exec(ctx);
    },
  },
  not_null: valueMethod([], (v) => (v === null ? fail('value is null') : v)),
  not_empty: valueMethod([], (v) => {
    const empty =
      typeof v === 'string' || v instanceof Uint8Array || Array.isArray(v)
        ? v.length === 0
        : isObject(v)
          ? Object.keys(v).length === 0
          : false;
    if (!(typeof v === 'string' || v instanceof Uint8Array || Array.isArray(v) || isObject(v)))
      throw typeError(v, '', 'string', 'array', 'object');
    return empty ? fail(`${typeOf(v)} value is empty`) : v;
  }),
  type: { params: [], create: (target) => (ctx) => typeOf(target.exec(ctx)) },
  string: valueMethod([], (v) => toText(v)),
  bytes: valueMethod([], (v) => new Uint8Array(Buffer.from(toText(v)))),
  number: valueMethod([param('default', 'number', { optional: true })], (v, args, ctx) => {
    try {
      return toNumber(v);
    } catch (err) {
      if (args.has('default') && isQueryFailure(err)) return Number(args.number('default', ctx));
      throw err;
    }
  }),
  float64: valueMethod([], (v) => toNumber(v)),
  int64: valueMethod([], (v) => toInt64(v)),
  bool: valueMethod([param('default', 'bool', { optional: true })], (v, args, ctx) => {
    try {
      return toBool(v);
    } catch (err) {
      if (args.has('default') && isQueryFailure(err)) return args.bool('default', ctx);
      throw err;
    }
  }),
  length: valueMethod([], (v) => {
    if (typeof v === 'string') return BigInt(Buffer.byteLength(v));
    if (v instanceof Uint8Array || Array.isArray(v)) return BigInt(v.length);
    if (isObject(v)) return BigInt(Object.keys(v).length);
    throw typeError(v, '', 'string', 'array', 'object');
  }),
  parse_json: valueMethod([param('use_number', 'bool', { default: false })], (v) => {
    try {
      return parseJson(asText(v));
    } catch (err) {
      if (err instanceof SyntaxError) fail(`failed to parse value as JSON: ${err.message}`);
      throw err;
    }
  }),
  format_json: valueMethod(
    [
      param('indent', 'string', { default: '    ' }),
      param('no_indent', 'bool', { default: false }),
      param('escape_html', 'bool', { default: true }),
    ],
    (v, args, ctx) => {
      const out = toJson(
        v,
        args.bool('no_indent', ctx) ? '' : args.string('indent', ctx),
        args.bool('escape_html', ctx),
      );
      checkSize(out.length, ctx);
      return new Uint8Array(Buffer.from(out));
    },
  ),
  encode: valueMethod([param('scheme', 'string')], (v, args, ctx) => {
    const scheme = args.string('scheme', ctx);
    const codec = ENCODERS[scheme];
    if (!codec || !Object.hasOwn(ENCODERS, scheme)) fail(`unrecognized encoding type: ${scheme}`);
    return codec.encode(bytesOf(v));
  }),
  decode: valueMethod([param('scheme', 'string')], (v, args, ctx) => {
    const scheme = args.string('scheme', ctx);
    const codec = ENCODERS[scheme];
    if (!codec || !Object.hasOwn(ENCODERS, scheme)) fail(`unrecognized encoding type: ${scheme}`);
    return new Uint8Array(codec.decode(asText(v)));
  }),
  hash: valueMethod([param('algorithm', 'string'), param('key', 'string', { optional: true })], (v, args, ctx) => {
    const algorithm = args.string('algorithm', ctx);
    if (Object.hasOwn(HASHES, algorithm))
      return new Uint8Array(createHash(HASHES[algorithm]).update(bytesOf(v)).digest());
    if (Object.hasOwn(HMACS, algorithm)) {
      if (!args.has('key')) fail(`hash algorithm ${algorithm} requires a key argument`);
      return new Uint8Array(createHmac(HMACS[algorithm], args.string('key', ctx)).update(bytesOf(v)).digest());
    }
    return fail(`unrecognized hash type: ${algorithm}`);
  }),
};

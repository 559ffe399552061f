import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { pace } from './budget';
import { charge, fail, type Context } from './query';
import { param, type Args } from './params';
import type { FunctionSpec } from './registry';
import { formatTimestamp, RFC3339_NANO } from './time-layout';
import { DELETE, NOTHING, newObject, toText, type Value } from './values';

const simple = (exec: (ctx: Context) => Value | typeof DELETE | typeof NOTHING): FunctionSpec => ({
  params: [],
  create: () => exec,
});

/** names one mapping may count with `count(name)` before the oldest is forgotten */
const MAX_NAMED_COUNTERS = 10_000;

const NANOID_ALPHABET = '_-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

export const FUNCTIONS: Record<string, FunctionSpec> = {
  deleted: simple(() => DELETE),
  nothing: simple(() => NOTHING),
  now: simple((ctx) => formatTimestamp(ctx.run.options.now(), RFC3339_NANO)),
  timestamp_unix: simple((ctx) => ctx.run.options.now().unixSeconds),
  timestamp_unix_milli: simple((ctx) => ctx.run.options.now().epochNanos / 1_000_000n),
  timestamp_unix_micro: simple((ctx) => ctx.run.options.now().epochNanos / 1_000n),
  pi: simple(() => Math.PI),
  timestamp_unix_nano: simple((ctx) => ctx.run.options.now().epochNanos),
  uuid_v4: simple(() => randomUUID()),
  hostname: simple((ctx) => ctx.run.options.hostname()),
  content: simple((ctx) => ctx.run.content()),
  error: simple((ctx) => ctx.run.error),
  errored: simple((ctx) => ctx.run.error !== null),
  batch_index: simple(() => 0n),
  batch_size: simple(() => 1n),
  throw: {
    params: [param('why', 'string')],
    create: (args) => (ctx) => fail(args.string('why', ctx)),
  },
  env: {
    params: [param('name', 'string'), param('no_cache', 'bool', { default: false })],
    create: (args) => (ctx) => {
      const { envPrefix, env } = ctx.run.options;
      const value = env[envPrefix + args.string('name', ctx)];
      return value === undefined || value === '' ? null : value;
    },
  },
  json: {
    params: [param('path', 'string', { default: '' })],
    create: (args) => (ctx) => {
      let v = ctx.current();
      for (const segment of args.string('path', ctx).split('.').filter(Boolean)) v = getSegment(v, segment);
      return v;
    },
  },
  meta: {
    params: [param('key', 'string', { default: '' })],
    create: (args) => (ctx) => {
      const key = args.string('key', ctx);
      const input = ctx.run.inputMeta;
      if (key === '') {
        const out = newObject();
        for (const [k, v] of input) out[k] = toText(v);
        return out;
      }
      const v = input.get(key);
      return v === undefined ? null : toText(v);
    },
  },
  root_meta: {
    params: [param('key', 'string', { default: '' })],
    create: (args) => (ctx) => {
      const key = args.string('key', ctx);
      if (key === '') {
        const out = newObject();
        for (const [k, v] of ctx.run.meta) out[k] = toText(v);
        return out;
      }
      const v = ctx.run.meta.get(key);
      return v === undefined ? null : toText(v);
    },
  },
  metadata: {
    params: [param('key', 'string', { default: '' })],
    create: (args) => (ctx) => {
      const key = args.string('key', ctx);
      const input = ctx.run.inputMeta;
      if (key === '') {
        const out = newObject();
        for (const [k, v] of input) out[k] = v;
        return out;
      }
      return input.get(key) ?? null;
    },
  },
  nanoid: {
    params: [param('length', 'int', { default: 21n }), param('alphabet', 'string', { optional: true })],
    create: (args) => (ctx) => {
      const length = Number(args.int('length', ctx));
      const alphabet = args.has('alphabet') ? args.string('alphabet', ctx) : NANOID_ALPHABET;
      if (length < 1 || length > 1024) fail('nanoid length must be between 1 and 1024');
      if (alphabet.length < 1 || alphabet.length > 255) fail('alphabet must be between 1 and 255 characters');
      const bytes = randomBytes(length);
      let out = '';
      for (let i = 0; i < length; i++) out += alphabet[bytes[i] % alphabet.length];
      return out;
    },
  },
  random_int: {
    params: [
      param('seed', 'any', { optional: true }),
      param('min', 'int', { default: 0n }),
      param('max', 'int', { default: (1n << 63n) - 2n }),
    ],
    create: (args) => (ctx) => {
      const min = args.int('min', ctx);
      const max = args.int('max', ctx);
      if (min < 0n || max < min) fail(`min (${min}) must be >= 0 and <= max (${max})`);
      const span = max - min + 1n;
      if (span <= BigInt(Number.MAX_SAFE_INTEGER))
        return min + BigInt(randomInt(0, Number(span) > 2 ** 48 - 1 ? 2 ** 48 - 1 : Number(span)));
      const r = BigInt('0x' + randomBytes(8).toString('hex')) % span;
      return min + r;
    },
  },
  counter: {
    params: [
      param('min', 'int', { default: 1n }),
      param('max', 'int', { default: (1n << 63n) - 1n }),
      param('set', 'query', { optional: true }),
    ],
    create: counter,
  },
  count: {
    params: [param('name', 'string')],
    create: (args) => (ctx) => {
      const name = args.string('name', ctx);
      const counters = ctx.run.counters;
      const next = (counters.get(name) ?? 0n) + 1n;
      counters.delete(name);
      if (counters.size >= MAX_NAMED_COUNTERS) counters.delete(counters.keys().next().value as string);
      counters.set(name, next);
      return next;
    },
  },
  range: {
    params: [param('start', 'int'), param('stop', 'int'), param('step', 'int', { default: 1n })],
    create: (args) => (ctx) => {
      const [start, stop, step] = [args.int('start', ctx), args.int('stop', ctx), args.int('step', ctx)];
      if (step === 0n) fail('step must be greater than or less than 0');
      if ((step > 0n && start > stop) || (step < 0n && start < stop))
        fail(`with positive step arg start (${start}) must be < stop (${stop})`);
      const count = (stop - start) / step;
      if (count > BigInt(ctx.run.options.limits.maxValueNodes)) fail('range exceeds the element limit');
      charge(ctx, Number(count));
      const out: Value[] = [];
      for (let v = start; step > 0n ? v < stop : v > stop; v += step) {
        pace();
        out.push(v);
      }
      return out;
    },
  },
};

function getSegment(v: Value, segment: string): Value {
  if (
    v !== null &&
    typeof v === 'object' &&
    !Array.isArray(v) &&
    !(v instanceof Uint8Array) &&
    Object.hasOwn(v, segment)
  )
    return (v as Record<string, Value>)[segment];
  if (Array.isArray(v) && /^[0-9]+$/.test(segment)) return v[Number(segment)] ?? null;
  return null;
}

/** counter(): 1, 2, 3… per call site across messages, back to min after max; `set` resets or sets it */
function counter(args: Args) {
  let current: bigint | null = null;
  return (ctx: Context) => {
    const min = args.int('min', ctx);
    const max = args.int('max', ctx);
    if (args.has('set')) {
      const set = args.query('set').exec(ctx);
      if (set === DELETE) {
        current = null;
        return min;
      }
      if (typeof set === 'bigint' || typeof set === 'number') {
        current = BigInt(Math.trunc(Number(set)));
        return current;
      }
      // null reads the counter without moving it
      if (set === null) return current ?? min;
      if (set !== NOTHING)
        fail(`expected number value from set, got ${typeof set === 'string' ? 'string' : typeof set}`);
    }
    current = current === null || current >= max ? min : current + 1n;
    return current;
  };
}

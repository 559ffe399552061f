import { errFrom, typeError, type Context, type Query } from './query';
import type { Args, ParamSpec } from './params';
import type { MethodSpec } from './registry';
import { bytesToString, type Result, type Value } from './values';

/**
 * A method over its target's value: the target is evaluated first, and a failure inside the
 * method is attributed to the target (Bento's ErrFrom), as in "expected string value, got
 * number from field `this.a`".
 */
export function valueMethod(
  params: ParamSpec[],
  fn: (v: Value, args: Args, ctx: Context, target: Query) => Result,
): MethodSpec {
  return {
    params,
    create: (target, args) => (ctx) => {
      const v = target.exec(ctx);
      if (typeof v === 'symbol') throw typeError(v, target.annotation);
      try {
        return fn(v, args, ctx, target);
      } catch (err) {
        throw errFrom(err, target.annotation);
      }
    },
  };
}

/** a string method that also takes bytes (returning bytes for bytes, like Bento) */
export function textMethod(params: ParamSpec[], fn: (s: string, args: Args, ctx: Context) => Result): MethodSpec {
  return valueMethod(params, (v, args, ctx) => {
    if (typeof v === 'string') return fn(v, args, ctx);
    if (v instanceof Uint8Array) {
      const out = fn(bytesToString(v), args, ctx);
      return typeof out === 'string' ? new Uint8Array(Buffer.from(out)) : out;
    }
    throw typeError(v, '', 'string');
  });
}

export function asText(v: Value): string {
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return bytesToString(v);
  throw typeError(v, '', 'string');
}

export function asArray(v: Value): Value[] {
  if (Array.isArray(v)) return v;
  throw typeError(v, '', 'array');
}

import { asArray, valueMethod } from './method-kit';
import { param } from './params';
import { fail, typeError } from './query';
import type { MethodSpec } from './registry';
import { floatToInt, isNumber, toFloat, type Value } from './values';

const MAX_INT = 2 ** 63;

/** rounding to an integer: an int64 when it fits (as Bento returns), the float otherwise */
function integral(fn: (n: number) => number): MethodSpec {
  return valueMethod([], (v) => {
    if (typeof v === 'bigint') return v;
    if (typeof v !== 'number') throw typeError(v, '', 'number');
    const r = fn(v);
    return Number.isFinite(r) && Math.abs(r) < MAX_INT ? floatToInt(r) : r;
  });
}

/** Go's math.Round: half away from zero */
const roundHalfAway = (n: number) => Math.sign(n) * Math.round(Math.abs(n));

function numberOf(v: Value): number {
  if (!isNumber(v)) throw typeError(v, '', 'number');
  return toFloat(v);
}

function numbersOf(v: Value): Array<number | bigint> {
  return asArray(v).map((e, i) => {
    if (!isNumber(e)) fail(`index ${i} of array: ${typeError(e, '', 'number').message}`);
    return e;
  });
}

export const NUMBER_METHODS: Record<string, MethodSpec> = {
  round: integral(roundHalfAway),
  floor: integral(Math.floor),
  ceil: integral(Math.ceil),
  abs: valueMethod([], (v) => {
    if (typeof v === 'bigint') return v < 0n ? (v === -(1n << 63n) ? (1n << 63n) - 1n : -v) : v;
    if (typeof v === 'number') return Math.abs(v);
    throw typeError(v, '', 'number');
  }),
  log: valueMethod([], (v) => Math.log(numberOf(v))),
  log10: valueMethod([], (v) => Math.log10(numberOf(v))),
  pow: valueMethod([param('exponent', 'number')], (v, args, ctx) =>
    Math.pow(numberOf(v), args.number('exponent', ctx)),
  ),
  // Bento sums as float64 (a number target is returned as it is)
  sum: valueMethod([], (v) => {
    if (isNumber(v)) return v;
    return asArray(v).reduce<number>((total, e, i) => {
      if (!isNumber(e)) fail(`index ${i}: ${typeError(e, '', 'number').message}`);
      return total + toFloat(e);
    }, 0);
  }),
  min: valueMethod([], (v) => {
    const nums = numbersOf(v);
    if (nums.length === 0) fail('the array was empty');
    return nums.map(toFloat).reduce((a, n) => (n < a ? n : a));
  }),
  max: valueMethod([], (v) => {
    const nums = numbersOf(v);
    if (nums.length === 0) fail('the array was empty');
    return nums.map(toFloat).reduce((a, n) => (n > a ? n : a));
  }),
};

import { isQueryFailure, QueryError } from './errors';
import { errFrom, fail, type Query, type Context, typeError, checkSize } from './query';
import { Timestamp } from './timestamp';
import { toText } from './values';
import {
  bytesToString,
  int64,
  isNumber,
  isObject,
  isTruthyNumber,
  NOTHING,
  DELETE,
  toFloat,
  typeOf,
  valuesEqual,
  type Result,
  type Value,
} from './values';

export type Operator = '+' | '-' | '*' | '/' | '%' | '==' | '!=' | '>' | '<' | '>=' | '<=' | '&&' | '||' | '|';

const OPERATION: Record<Operator, string> = {
  '+': 'add',
  '-': 'subtract',
  '*': 'multiply',
  '/': 'divide',
  '%': 'modulo',
  '==': 'compare',
  '!=': 'compare',
  '>': 'compare',
  '<': 'compare',
  '>=': 'compare',
  '<=': 'compare',
  '&&': 'boolean and',
  '||': 'boolean or',
  '|': 'coalesce',
};

/** Bento's precedence passes: `* / % |`, then `+ -`, then comparisons, then `&& ||`, each left to right */
const LEVELS: Operator[][] = [
  ['*', '/', '%', '|'],
  ['+', '-'],
  ['==', '!=', '>', '<', '>=', '<='],
  ['&&', '||'],
];

export function combine(operands: Query[], operators: Operator[]): Query {
  let fns = operands;
  let ops = operators;
  for (const level of LEVELS) {
    if (ops.length === 0) break;
    const nextFns = [fns[0]];
    const nextOps: Operator[] = [];
    ops.forEach((op, i) => {
      if (level.includes(op)) nextFns[nextFns.length - 1] = binary(op, nextFns[nextFns.length - 1], fns[i + 1]);
      else {
        nextFns.push(fns[i + 1]);
        nextOps.push(op);
      }
    });
    fns = nextFns;
    ops = nextOps;
  }
  return fns[0];
}

function mismatch(op: Operator, l: Query, r: Query, lv: Result, rv: Result): QueryError {
  return new QueryError(
    `cannot ${OPERATION[op]} types ${typeOf(lv)} (from ${l.annotation}) and ${typeOf(rv)} (from ${r.annotation})`,
  );
}

export function binary(op: Operator, l: Query, r: Query): Query {
  const annotation = r.annotation;
  if (op === '&&' || op === '||') return logical(op, l, r);
  if (op === '|') {
    return {
      annotation,
      exec(ctx) {
        try {
          const v = l.exec(ctx);
          if (v !== null && v !== DELETE && v !== NOTHING) return v;
        } catch (err) {
          if (!isQueryFailure(err)) throw err;
        }
        return r.exec(ctx);
      },
    };
  }
  const apply = (lv: Result, rv: Result, ctx?: Context): Result => {
    let result: Value | undefined;
    try {
      result = arithmetic(op, lv, rv);
    } catch (err) {
      throw errFrom(err, r.annotation); // division by zero names the divisor, as Bento does
    }
    if (result === undefined) throw mismatch(op, l, r, lv, rv);
    if (typeof result === 'string' && ctx) checkSize(result.length, ctx);
    return result;
  };
  if (l.literal && r.literal) {
    // folded at parse time, as Bento does (so `"a" + 1` is refused when saved)
    const value = apply(l.literal.value, r.literal.value) as Value;
    return { annotation, literal: { value }, exec: () => value };
  }
  return {
    annotation,
    exec(ctx) {
      const lv = l.exec(ctx);
      const rv = r.exec(ctx);
      return apply(lv, rv, ctx);
    },
  };
}

function logical(op: '&&' | '||', l: Query, r: Query): Query {
  const asBool = (q: Query, v: Result): boolean => {
    if (typeof v === 'boolean') return v;
    if (isNumber(v)) return isTruthyNumber(v);
    throw typeError(v, q.annotation, 'bool');
  };
  return {
    annotation: r.annotation,
    exec(ctx) {
      const left = asBool(l, l.exec(ctx));
      if (op === '&&' ? !left : left) return left;
      return asBool(r, r.exec(ctx));
    },
  };
}

type Num = number | bigint;

function numberOp(op: Operator, a: Num, b: Num): Value | undefined {
  if (op === '/') {
    if (toFloat(b) === 0) fail('attempted to divide by zero');
    return toFloat(a) / toFloat(b);
  }
  if (op === '%') {
    const [x, y] = [toInt(a), toInt(b)];
    if (y === 0n) fail('attempted to divide by zero');
    return int64(x % y);
  }
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    switch (op) {
      case '+':
        return int64(a + b);
      case '-':
        return int64(a - b);
      case '*':
        return int64(a * b);
    }
  }
  const [x, y] = [toFloat(a), toFloat(b)];
  switch (op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
  }
  return undefined;
}

const toInt = (n: Num): bigint => (typeof n === 'bigint' ? n : BigInt(Math.trunc(n)));

function compare(op: Operator, a: Value, b: Value): boolean | undefined {
  const order = (x: Num | string, y: Num | string): boolean => {
    switch (op) {
      case '>':
        return x > y;
      case '<':
        return x < y;
      case '>=':
        return x >= y;
      default:
        return x <= y;
    }
  };
  if (op === '==' || op === '!=') {
    const eq = valuesEqual(a instanceof Timestamp ? toText(a) : a, b instanceof Timestamp ? toText(b) : b);
    return op === '==' ? eq : !eq;
  }
  const text = (v: Value) =>
    typeof v === 'string' ? v : v instanceof Uint8Array ? bytesToString(v) : v instanceof Timestamp ? toText(v) : null;
  const [ta, tb] = [text(a), text(b)];
  if (ta !== null && tb !== null) return order(ta, tb);
  if (isNumber(a) && isNumber(b))
    return typeof a === 'bigint' && typeof b === 'bigint' ? order(a, b) : order(toFloat(a), toFloat(b));
  return undefined;
}

function arithmetic(op: Operator, a: Result, b: Result): Value | undefined {
  if (typeof a === 'symbol' || typeof b === 'symbol') return undefined;
  if (['==', '!=', '>', '<', '>=', '<='].includes(op)) return compare(op, a, b);
  if (isNumber(a) && isNumber(b)) return numberOp(op, a, b);
  if (
    op === '+' &&
    (typeof a === 'string' || a instanceof Uint8Array) &&
    (typeof b === 'string' || b instanceof Uint8Array || b instanceof Timestamp)
  ) {
    return toText(a) + toText(b);
  }
  if (isObject(a) || Array.isArray(a)) return undefined;
  return undefined;
}

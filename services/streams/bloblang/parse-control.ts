import { isQueryFailure } from './errors';
import { delimited } from './parse-literals';
import { parseQuery, type Scope } from './parse-query';
import { execValue, fail, type Context, type Query } from './query';
import { ParseFailure, type Cursor } from './scanner';
import { NOTHING, valuesEqual, type Result, type Value } from './values';

export function parseIf(c: Cursor, scope: Scope): Query {
  const branches: Array<{ cond: Query; then: Query }> = [];
  let otherwise: Query | undefined;
  c.pos += 2;
  const block = () => {
    c.gap();
    c.expect('{', 'opening curly brace');
    c.gap();
    const q = parseQuery(c, scope);
    c.gap();
    c.expect('}', 'closing curly brace');
    return q;
  };
  branches.push({ cond: mustQuery(c, scope), then: block() });
  for (;;) {
    const save = c.pos;
    c.gap();
    if (c.eatWord('else')) {
      c.spaces();
      if (c.eatWord('if')) {
        branches.push({ cond: mustQuery(c, scope), then: block() });
        continue;
      }
      otherwise = block();
    } else c.pos = save;
    break;
  }
  return {
    annotation: 'if expression',
    exec(ctx) {
      for (const [i, b] of branches.entries()) {
        if (checkCondition(b.cond, ctx, i)) return b.then.exec(ctx);
      }
      return otherwise ? otherwise.exec(ctx) : NOTHING;
    },
  };
}

function mustQuery(c: Cursor, scope: Scope): Query {
  c.spaces();
  try {
    return parseQuery(c, scope);
  } catch (err) {
    if (err instanceof ParseFailure && !err.fatal) throw new ParseFailure(err.pos, err.expected, 'required');
    throw err;
  }
}

/** `if` conditions: a boolean, or null (false); anything else fails the message */
export function checkCondition(cond: Query, ctx: Context, index: number): boolean {
  let v: Result;
  try {
    v = cond.exec(ctx);
  } catch (err) {
    if (isQueryFailure(err)) fail(`failed to check if condition${index > 0 ? ` ${index}` : ''}: ${err.message}`);
    throw err;
  }
  if (typeof v === 'boolean') return v;
  if (v === null) return false;
  fail(`${cond.annotation} resolved to a non-boolean value ${typeof v === 'symbol' ? 'null' : describe(v)}`);
}

function describe(v: Value): string {
  if (typeof v === 'string') return `${v} (string)`;
  if (typeof v === 'bigint') return `${v} (int64)`;
  if (typeof v === 'number') return `${v} (float64)`;
  return `${JSON.stringify(v)}`;
}

export function parseMatch(c: Cursor, scope: Scope): Query {
  c.pos += 5;
  c.spaces();
  let subject: Query | undefined;
  if (c.char() !== '{') subject = parseQuery(c, scope);
  c.gap();
  if (!c.eat('{')) throw new ParseFailure(c.pos, ['{'], 'required');
  const cases = delimited(
    c,
    '}',
    () => {
      let test: ((ctx: Context) => boolean) | null = null;
      if (c.char() === '_' && /^_[ \t]*=>/.test(c.text.slice(c.pos))) {
        c.pos++;
        test = () => true;
      } else {
        const pattern = parseQuery(c, scope);
        test = pattern.literal
          ? (ctx) => valuesEqual(ctx.current(), pattern.literal!.value)
          : (ctx) => pattern.exec(ctx) === true;
      }
      c.spaces();
      c.expect('=>', '=>');
      c.spaces();
      return { test, body: parseQuery(c, scope) };
    },
    [',', '\n'],
  );
  return {
    annotation: 'match expression',
    exec(ctx) {
      const value = subject ? execValue(subject, ctx) : ctx.current();
      const caseCtx = ctx.withValue(value);
      for (const [i, k] of cases.entries()) {
        let matched: boolean;
        try {
          matched = k.test(caseCtx);
        } catch (err) {
          if (isQueryFailure(err)) fail(`failed to check match case ${i}: ${err.message}`);
          throw err;
        }
        if (matched) return k.body.exec(caseCtx);
      }
      return NOTHING;
    },
  };
}

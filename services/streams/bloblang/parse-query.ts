import { QueryError } from './errors';
import { FUNCTIONS } from './functions';
import { METHODS } from './methods';
import { binary, combine, type Operator } from './operators';
import { Args } from './params';
import { execValue, fail, typeError, type Context, type Query } from './query';
import type { FunctionSpec, MethodSpec } from './registry';
import { Cursor, ParseFailure } from './scanner';
import { getPath, indexValue, literal, sliceValue, type FieldBase } from './paths';
import { DELETE, NOTHING, newObject, valuesEqual, type Result, type Value } from './values';

/** Names bound by enclosing lambdas (`x -> …`), which shadow fields of `this`. */
export interface Scope {
  named: ReadonlySet<string>;
}

const OPERATORS: Operator[] = ['&&', '||', '==', '!=', '>=', '<=', '+', '-', '/', '*', '%', '>', '<', '|'];

/** query := term (op term)*, operators on the operand's line, operands after any gap */
export function parseQuery(c: Cursor, scope: Scope): Query {
  c.spaces();
  const start = c.pos;
  const operands: Query[] = [];
  const ops: Operator[] = [];
  for (;;) {
    let negate = false;
    if (c.char() === '-' && c.char(1) !== '>') {
      c.pos++;
      c.gap();
      negate = true;
    }
    const term = parseTerm(c, scope);
    operands.push(negate ? foldNegation(c, term) : term);
    const save = c.pos;
    c.spaces();
    const op = OPERATORS.find((o) => c.peek(o) && !(o === '|' && c.peek('||')) && !(o === '-' && c.peek('->')));
    if (!op || c.peek('=>')) {
      c.pos = save;
      break;
    }
    c.pos += op.length;
    c.gap();
    ops.push(op);
  }
  try {
    return combine(operands, ops);
  } catch (err) {
    // literals are folded when parsed, so their type errors are found when the mapping is saved
    if (err instanceof QueryError) throw c.fatal(err.message, start);
    throw err;
  }
}

function foldNegation(c: Cursor, term: Query): Query {
  try {
    return binary('-', literal(0n), term);
  } catch (err) {
    if (err instanceof QueryError) throw c.fatal(err.message);
    throw err;
  }
}

function parseTerm(c: Cursor, scope: Scope): Query {
  const start = c.pos;
  let not = false;
  if (c.char() === '!' && c.char(1) !== '=') {
    c.pos++;
    c.spaces();
    not = true;
  }
  let q = parseBase(c, scope);
  for (;;) {
    if (c.char() === '[') {
      q = parseBracket(c, scope, q);
      continue;
    }
    const save = c.pos;
    if (!c.eat('.')) break;
    c.gap();
    if (c.char() === '(') {
      q = parseMapExpression(c, scope, q);
      continue;
    }
    const nameStart = c.pos;
    const name = c.word();
    if (name !== null && c.char() === '(') {
      q = parseMethod(c, scope, q, name, nameStart);
      continue;
    }
    const segment = name ?? c.quoted();
    if (segment === null) {
      c.pos = save + 1;
      throw c.failure('method', 'field path');
    }
    q = getPath(q, [segment]);
  }
  if (!not) return q;
  const target = q;
  void start;
  return {
    annotation: 'not ' + target.annotation,
    exec(ctx) {
      const v = target.exec(ctx);
      if (typeof v !== 'boolean') throw typeError(v, target.annotation, 'bool');
      return !v;
    },
  };
}

function parseBase(c: Cursor, scope: Scope): Query {
  const ch = c.char();
  if (ch === '(') {
    c.pos++;
    c.gap();
    const inner = parseQuery(c, scope);
    c.gap();
    c.expect(')', 'closing bracket');
    return inner;
  }
  if (ch === '"') {
    const s = c.quoted()!;
    return literal(s);
  }
  if (ch === '[') return parseArray(c, scope);
  if (ch === '{') return parseObject(c, scope);
  if (ch === '@') return parseMetaReference(c);
  if (ch === '$') {
    c.pos++;
    const name = c.word();
    if (name === null) throw c.failure('variable path');
    return variable(name);
  }
  if (/[0-9]/.test(ch)) return parseNumber(c);
  const start = c.pos;
  const word = c.lookWord();
  if (word === null) throw c.failure('query');
  if (word === 'true' || word === 'false' || word === 'null') {
    c.pos += word.length;
    return literal(word === 'null' ? null : word === 'true');
  }
  if (word === 'match' && /[ \t{]/.test(c.text[start + 5] ?? '')) return parseMatch(c, scope);
  if (word === 'if' && /[ \t]/.test(c.text[start + 2] ?? '')) return parseIf(c, scope);
  c.pos += word.length;
  const afterWord = c.pos;
  c.spaces();
  if (c.peek('->')) {
    c.pos += 2;
    c.spaces();
    return parseLambda(c, scope, word, start);
  }
  c.pos = afterWord;
  if (c.char() === '(') return parseFunction(c, scope, word, start);
  if (word === 'this') return getPath(thisQuery(), []);
  if (word === 'root') return getPath(rootQuery(), []);
  if (scope.named.has(word)) return getPath(namedQuery(word), []);
  return getPath(thisQuery(), [word]);
}

function parseNumber(c: Cursor): Query {
  const m = /^[0-9]+(\.[0-9]+)?/.exec(c.text.slice(c.pos));
  c.pos += m![0].length;
  if (m![1]) return literal(Number(m![0]));
  const big = BigInt(m![0]);
  if (BigInt.asIntN(64, big) !== big) throw c.fatal(`number ${m![0]} overflows int64`);
  return literal(big);
}

function parseArray(c: Cursor, scope: Scope): Query {
  c.pos++;
  const items = delimited(c, ']', () => parseQuery(c, scope));
  if (items.every((i) => i.literal)) return literal(items.map((i) => i.literal!.value));
  return {
    annotation: 'array literal',
    exec(ctx) {
      const out: Value[] = [];
      for (const item of items) {
        const v = item.exec(ctx);
        if (v === DELETE || v === NOTHING) continue;
        out.push(v);
      }
      return out;
    },
  };
}

function parseObject(c: Cursor, scope: Scope): Query {
  c.pos++;
  const entries = delimited(c, '}', () => {
    const key: string | Query = c.char() === '"' && !c.peek('"""') ? c.quoted()! : parseQuery(c, scope);
    c.spaces();
    c.expect(':', 'colon');
    c.gap();
    return { key, value: parseQuery(c, scope) };
  });
  if (entries.every((e) => typeof e.key === 'string' && e.value.literal)) {
    const obj = newObject();
    for (const e of entries) obj[e.key as string] = e.value.literal!.value;
    return literal(obj);
  }
  return {
    annotation: 'object literal',
    exec(ctx) {
      const out = newObject();
      for (const { key, value } of entries) {
        let k: string;
        if (typeof key === 'string') k = key;
        else {
          const kv = key.exec(ctx);
          if (typeof kv !== 'string') throw new QueryError(`mapping returned invalid key type: ${typeof kv === 'symbol' ? String(kv) : kv === null ? 'null' : typeof kv}`);
          k = kv;
        }
        const v = value.exec(ctx);
        if (v === DELETE || v === NOTHING) continue;
        out[k] = v;
      }
      return out;
    },
  };
}

/** items separated by commas (newlines allowed around them), up to `close` */
export function delimited<T>(c: Cursor, close: string, item: () => T, separators = [',']): T[] {
  const out: T[] = [];
  c.gap();
  if (c.eat(close)) return out;
  for (;;) {
    out.push(item());
    c.spaces();
    if (separators.some((s) => c.eat(s))) {
      c.gap();
      if (c.eat(close)) return out;
      continue;
    }
    if (separators.includes('\n') || c.char() === '#') {
      const save = c.pos;
      if (c.endOfLine() && c.pos > save) {
        c.gap();
        if (c.eat(close)) return out;
        continue;
      }
    }
    c.gap();
    if (c.eat(close)) return out;
    throw c.failure(...separators.map((s) => (s === ',' ? 'comma' : 'line break')), `closing ${close === ']' ? 'square bracket' : close === '}' ? 'curly brace' : 'bracket'}`);
  }
}

function parseMetaReference(c: Cursor): Query {
  c.pos++;
  const name = c.word() ?? c.quoted();
  if (name === null) {
    return {
      annotation: 'metadata object',
      exec(ctx) {
        const out = newObject();
        for (const [k, v] of ctx.run.meta) out[k] = v;
        return out;
      },
    };
  }
  return { annotation: `metadata value ${name}`, exec: (ctx) => ctx.run.meta.get(name) ?? null };
}

function variable(name: string): Query {
  return {
    annotation: `variable ${name}`,
    exec(ctx) {
      const v = ctx.run.vars.get(name);
      if (v === undefined) fail(`variable '${name}' undefined`);
      return v;
    },
  };
}

export function thisQuery(): Query {
  return { annotation: 'this', fieldRoot: 'this', exec: (ctx) => ctx.current() } as FieldBase;
}

function rootQuery(): Query {
  return <FieldBase>{
    annotation: 'root',
    fieldRoot: 'root',
    exec(ctx: Context) {
      const v = ctx.root.value;
      return v === NOTHING || v === DELETE ? null : v;
    },
  };
}

function namedQuery(name: string): Query {
  return { annotation: name, fieldRoot: name, exec: (ctx) => ctx.named.get(name) ?? null } as FieldBase;
}

function parseLambda(c: Cursor, scope: Scope, name: string, start: number): Query {
  if (name === 'root' || name === 'this') throw c.fatal(`context label \`${name}\` is not allowed`, start);
  if (name !== '_' && scope.named.has(name)) throw c.fatal(`context label \`${name}\` would shadow a parent context`, start);
  const body = parseQuery(c, { named: new Set([...scope.named, name]) });
  return { annotation: body.annotation, exec: (ctx) => body.exec(ctx.popInto(name)) };
}

function parseArgs(c: Cursor, scope: Scope): { positional: Query[]; named: Map<string, Query> } {
  c.pos++;
  const positional: Query[] = [];
  const named = new Map<string, Query>();
  delimited(c, ')', () => {
    const m = /^([a-z0-9_]+):(?!:)/.exec(c.text.slice(c.pos));
    if (m) {
      c.pos += m[0].length;
      c.spaces();
      named.set(m[1], parseQuery(c, scope));
    } else positional.push(parseQuery(c, scope));
  });
  return { positional, named };
}

function bindArgs(c: Cursor, owner: string, spec: FunctionSpec | MethodSpec, scope: Scope, at: number): Args {
  const { positional, named } = parseArgs(c, scope);
  const args = Args.bind(owner, spec, positional, named);
  if (typeof args === 'string') throw c.fatal(`${owner}: ${args}`, at);
  return args;
}

function parseFunction(c: Cursor, scope: Scope, name: string, start: number): Query {
  const spec = FUNCTIONS[name];
  if (!spec || !Object.hasOwn(FUNCTIONS, name)) throw c.fatal(`unrecognised function '${name}'`, start);
  const args = bindArgs(c, `function ${name}`, spec, scope, start);
  let exec;
  try {
    exec = spec.create(args);
  } catch (err) {
    throw c.fatal(`function ${name}: ${(err as Error).message}`, start);
  }
  return { annotation: `function ${name}`, exec };
}

function parseMethod(c: Cursor, scope: Scope, target: Query, name: string, start: number): Query {
  const spec = METHODS[name];
  if (!spec || !Object.hasOwn(METHODS, name)) throw c.fatal(`unrecognised method '${name}'`, start);
  const args = bindArgs(c, `method ${name}`, spec, scope, start);
  let exec;
  try {
    exec = spec.create(target, args);
  } catch (err) {
    throw c.fatal(`method ${name}: ${(err as Error).message}`, start);
  }
  return { annotation: `method ${name}`, exec };
}

/** `target.(query)`: the query runs with the target as `this` */
function parseMapExpression(c: Cursor, scope: Scope, target: Query): Query {
  c.pos++;
  c.gap();
  const body = parseQuery(c, scope);
  c.gap();
  c.expect(')', 'closing bracket');
  return { annotation: body.annotation, exec: (ctx) => body.exec(ctx.withValue(execValue(target, ctx))) };
}

/** `target[index]` or `target[start:end:step]`, each bound optional */
function parseBracket(c: Cursor, scope: Scope, target: Query): Query {
  c.pos++;
  c.gap();
  const bound = (): Query | undefined => {
    c.gap();
    if (c.char() === ':' || c.char() === ']') return undefined;
    const q = parseQuery(c, scope);
    c.gap();
    return q;
  };
  const first = bound();
  if (first && c.eat(']')) return indexValue(target, first);
  c.expect(':', 'closing bracket');
  const end = bound();
  let step: Query | undefined;
  if (c.eat(':')) step = bound();
  c.expect(']', 'closing bracket');
  return sliceValue(target, first, end, step);
}

function parseIf(c: Cursor, scope: Scope): Query {
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
    if (err instanceof QueryError) fail(`failed to check if condition${index > 0 ? ` ${index}` : ''}: ${err.message}`);
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

function parseMatch(c: Cursor, scope: Scope): Query {
  c.pos += 5;
  c.spaces();
  let subject: Query | undefined;
  if (c.char() !== '{') subject = parseQuery(c, scope);
  c.gap();
  c.expect('{', 'opening curly brace');
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
          if (err instanceof QueryError) fail(`failed to check match case ${i}: ${err.message}`);
          throw err;
        }
        if (matched) return k.body.exec(caseCtx);
      }
      return NOTHING;
    },
  };
}

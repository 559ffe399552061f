import { QueryError } from './errors';
import { binary, combine, type Operator } from './operators';
import { parseBracket, parseFunction, parseMapExpression, parseMethod } from './parse-calls';
import { parseIf, parseMatch } from './parse-control';
import { parseArray, parseNumber, parseObject } from './parse-literals';
import { getPath, literal, type FieldBase } from './paths';
import { fail, typeError, type Context, type Query } from './query';
import { ParseFailure, type Cursor } from './scanner';
import { DELETE, NOTHING, newObject } from './values';

export { checkCondition } from './parse-control';
export { delimited } from './parse-literals';

/*
 * The query grammar: operators between terms; a term is an optional `!`, a base (literal,
 * reference, call, if, match, lambda, brackets) and its tails (fields, methods, indexes).
 */

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
    const name = c.word();
    if (name !== null && c.char() === '(') {
      q = parseMethod(c, scope, q, name);
      continue;
    }
    const segment = name ?? c.quoted();
    if (segment === null) throw new ParseFailure(save + 1, ['method', 'field path'], 'required');
    q = getPath(q, [segment]);
  }
  if (!not) return q;
  const target = q;
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
    if (!c.eat(')')) throw new ParseFailure(c.pos, ['closing bracket'], 'required');
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
  if (c.char() === '(') return parseFunction(c, scope, word);
  if (word === 'this') return getPath(thisQuery(), []);
  if (word === 'root') return getPath(rootQuery(), []);
  if (scope.named.has(word)) return getPath(namedQuery(word), []);
  return getPath(thisQuery(), [word]);
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
  if (name !== '_' && scope.named.has(name))
    throw c.fatal(`context label \`${name}\` would shadow a parent context`, start);
  const body = parseQuery(c, { named: new Set([...scope.named, name]) });
  return { annotation: body.annotation, exec: (ctx) => body.exec(ctx.popInto(name)) };
}

import { FUNCTIONS } from './functions';
import { METHODS } from './methods';
import { Args } from './params';
import { delimited } from './parse-literals';
import { parseQuery, type Scope } from './parse-query';
import { indexValue, sliceValue } from './paths';
import { execValue, type Query } from './query';
import type { FunctionSpec, MethodSpec } from './registry';
import type { Cursor } from './scanner';

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

export function parseFunction(c: Cursor, scope: Scope, name: string, start: number): Query {
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

export function parseMethod(c: Cursor, scope: Scope, target: Query, name: string, start: number): Query {
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
export function parseMapExpression(c: Cursor, scope: Scope, target: Query): Query {
  c.pos++;
  c.gap();
  const body = parseQuery(c, scope);
  c.gap();
  c.expect(')', 'closing bracket');
  return { annotation: body.annotation, exec: (ctx) => body.exec(ctx.withValue(execValue(target, ctx))) };
}

/** `target[index]` or `target[start:end:step]`, each bound optional */
export function parseBracket(c: Cursor, scope: Scope, target: Query): Query {
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
  if (!c.eat(':')) throw c.failure('colon', 'closing square bracket');
  const end = bound();
  let step: Query | undefined;
  if (c.eat(':')) step = bound();
  c.expect(']', 'closing square bracket');
  return sliceValue(target, first, end, step);
}


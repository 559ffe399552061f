import { pace } from './budget';
import { FUNCTIONS } from './functions';
import { METHODS } from './methods';
import { Args } from './params';
import { delimited } from './parse-literals';
import { parseQuery, type Scope } from './parse-query';
import { indexValue, sliceValue } from './paths';
import { execValue, type Query } from './query';
import type { Exec, FunctionSpec, MethodSpec } from './registry';
import { ParseFailure, type Cursor } from './scanner';

/** A query the grammar requires here: failing to find one is final ("required: expected …"). */
export function required(c: Cursor, what: string, parse: () => Query): Query {
  const at = c.pos;
  try {
    return parse();
  } catch (err) {
    if (err instanceof ParseFailure && !err.fatal)
      throw new ParseFailure(err.pos === at ? at : err.pos, err.pos === at ? [what] : err.expected, 'required');
    throw err;
  }
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
      named.set(
        m[1],
        required(c, 'argument value', () => parseQuery(c, scope)),
      );
    } else positional.push(required(c, 'function argument', () => parseQuery(c, scope)));
  });
  return { positional, named };
}

/**
 * Arguments are read before the name is checked, so errors point after the call, as Bento's do;
 * literal arguments of the wrong type are refused here rather than on every message.
 */
function parseCall<S extends FunctionSpec | MethodSpec>(
  c: Cursor,
  scope: Scope,
  kind: 'function' | 'method',
  name: string,
  table: Record<string, S>,
  build: (spec: S, args: Args) => Exec,
): Query {
  const { positional, named } = parseArgs(c, scope);
  const spec = Object.hasOwn(table, name) ? table[name] : undefined;
  if (!spec) throw c.fatal(`unrecognised ${kind} '${name}'`);
  const args = Args.bind(`${kind} ${name}`, spec, positional, named);
  if (typeof args === 'string') throw c.fatal(args);
  const literalProblem = args.checkLiterals();
  if (literalProblem) throw c.fatal(literalProblem);
  let exec: Exec;
  try {
    exec = build(spec, args);
  } catch (err) {
    throw c.fatal(`${kind} ${name}: ${(err as Error).message}`);
  }
  return { annotation: `${kind} ${name}`, exec: pacedCall(exec) };
}

/**
 * Every call counts against the time budget, after the fact in proportion to what it built:
 * a method that returned a large array or string did native work the budget must see.
 */
function pacedCall(exec: Exec): Exec {
  return (ctx) => {
    pace();
    const result = exec(ctx);
    if (Array.isArray(result)) pace(result.length >> 6);
    else if (typeof result === 'string') pace(result.length >> 12);
    return result;
  };
}

export function parseFunction(c: Cursor, scope: Scope, name: string): Query {
  return parseCall(c, scope, 'function', name, FUNCTIONS, (spec, args) => spec.create(args));
}

export function parseMethod(c: Cursor, scope: Scope, target: Query, name: string): Query {
  return parseCall(c, scope, 'method', name, METHODS, (spec, args) => spec.create(target, args));
}

/** `target.(query)`: the query runs with the target as `this` */
export function parseMapExpression(c: Cursor, scope: Scope, target: Query): Query {
  c.pos++;
  c.gap();
  const body = required(c, 'query', () => parseQuery(c, scope));
  c.gap();
  if (!c.eat(')')) throw new ParseFailure(c.pos, ['closing bracket'], 'required');
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

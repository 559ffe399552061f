import type { BinaryOp, Expr, Literal } from './ast';
import { unsupported } from './errors';
import { parseQuery } from './parse-body';
import { describe, locOf, type TokenCursor } from './token-cursor';

const COMPARISONS = new Set(['==', '!=', '<', '<=', '>', '>=']);
const RESERVED = new Set(['package', 'import', 'default', 'not', 'some', 'every', 'with', 'else', 'as']);

/** An expression of a body, with `:=` / `=` allowed at its top. */
export function parseLiteralExpr(cur: TokenCursor): Expr {
  const left = parseMembership(cur);
  for (const op of [':=', '='] as const) {
    if (cur.isPunct(op)) {
      const token = cur.next();
      cur.skipNewlines();
      return { type: 'binary', op, left, right: parseMembership(cur), loc: locOf(token) };
    }
  }
  return left;
}

/** `x in xs`, or any lower expression. */
export function parseMembership(cur: TokenCursor): Expr {
  const value = parseComparison(cur);
  if (!cur.isWord('in')) return value;
  const token = cur.next();
  cur.skipNewlines();
  return { type: 'in', value, collection: parseComparison(cur), loc: locOf(token) };
}

function parseComparison(cur: TokenCursor): Expr {
  let left = parseAdditive(cur);
  while (cur.peek().kind === 'punct' && COMPARISONS.has(cur.peek().text)) {
    const token = cur.next();
    cur.skipNewlines();
    left = { type: 'binary', op: token.text as BinaryOp, left, right: parseAdditive(cur), loc: locOf(token) };
  }
  if (cur.isPunct('&')) throw unsupported("the set intersection operator '&'", locOf(cur.peek()));
  return left;
}

function parseAdditive(cur: TokenCursor): Expr {
  let left = parseMultiplicative(cur);
  while (cur.isPunct('+') || cur.isPunct('-')) {
    const token = cur.next();
    cur.skipNewlines();
    left = { type: 'binary', op: token.text as BinaryOp, left, right: parseMultiplicative(cur), loc: locOf(token) };
  }
  return left;
}

function parseMultiplicative(cur: TokenCursor): Expr {
  let left = parseUnary(cur);
  while (cur.isPunct('*') || cur.isPunct('/') || cur.isPunct('%')) {
    const token = cur.next();
    cur.skipNewlines();
    left = { type: 'binary', op: token.text as BinaryOp, left, right: parseUnary(cur), loc: locOf(token) };
  }
  return left;
}

function parseUnary(cur: TokenCursor): Expr {
  if (!cur.isPunct('-')) return parsePostfix(cur);
  const token = cur.next();
  const arg = parseUnary(cur);
  if (arg.type === 'scalar' && typeof arg.value === 'number') return { ...arg, value: -arg.value, loc: locOf(token) };
  return { type: 'unary', op: '-', arg, loc: locOf(token) };
}

/** A term followed by `.name` and `[expr]` selections, or a call of a (dotted) function name. */
export function parsePostfix(cur: TokenCursor): Expr {
  const head = parseTerm(cur);
  const path: Expr[] = [];
  for (;;) {
    if (cur.isPunct('.')) {
      cur.next();
      const name = cur.expectIdent('a field name after "."');
      path.push({ type: 'scalar', value: name.text, loc: locOf(name) });
    } else if (cur.isPunct('[')) {
      cur.next();
      path.push(cur.within('term', () => parseMembership(cur)));
      cur.within('term', () => cur.expect(']'));
    } else if (cur.isPunct('(')) {
      return parseCall(cur, head, path);
    } else {
      break;
    }
  }
  return path.length === 0 ? head : { type: 'ref', head, path, loc: head.loc };
}

function parseCall(cur: TokenCursor, head: Expr, path: Expr[]): Expr {
  const dotted = path.every((p) => p.type === 'scalar' && typeof p.value === 'string');
  if (head.type !== 'var' || !dotted) throw cur.error('only a function name can be called');
  const name = [head.name, ...path.map((p) => (p as { value: string }).value)].join('.');
  cur.next();
  const args = cur.within('term', () => commaList(cur, ')', () => parseMembership(cur)));
  return { type: 'call', name, args, loc: head.loc };
}

function parseTerm(cur: TokenCursor): Expr {
  const token = cur.peek();
  const loc = locOf(token);
  if (token.kind === 'number') {
    cur.next();
    return { type: 'scalar', value: Number(token.text), loc };
  }
  if (token.kind === 'string') {
    cur.next();
    return { type: 'scalar', value: token.text, loc };
  }
  if (token.kind === 'ident') {
    if (RESERVED.has(token.text)) throw cur.error(`unexpected keyword '${token.text}'`);
    cur.next();
    if (token.text === 'true' || token.text === 'false') return { type: 'scalar', value: token.text === 'true', loc };
    if (token.text === 'null') return { type: 'scalar', value: null, loc };
    return { type: 'var', name: token.text, loc };
  }
  if (token.kind === 'punct') {
    if (token.text === '(') {
      cur.next();
      const inner = cur.within('term', () => parseMembership(cur));
      cur.within('term', () => cur.expect(')'));
      return inner;
    }
    if (token.text === '[') return parseArray(cur);
    if (token.text === '{') return parseBraces(cur);
  }
  throw cur.error(`expected a value but found ${describe(token)}`);
}

function parseArray(cur: TokenCursor): Expr {
  const loc = locOf(cur.next());
  return cur.within('term', (): Expr => {
    if (cur.eat(']')) return { type: 'array', items: [], loc };
    const first = parseMembership(cur);
    if (cur.eat('|')) return { type: 'arrayCompr', term: first, body: comprehensionBody(cur, ']'), loc };
    const items = cur.eat(',')
      ? [first, ...commaList(cur, ']', () => parseMembership(cur))]
      : (cur.expect(']'), [first]);
    return { type: 'array', items, loc };
  });
}

/** `{}` (empty object), `{k: v, ...}`, `{a, b}` (set), or a set or object comprehension. */
function parseBraces(cur: TokenCursor): Expr {
  const loc = locOf(cur.next());
  return cur.within('term', (): Expr => {
    if (cur.eat('}')) return { type: 'object', entries: [], loc };
    const first = parseMembership(cur);
    if (cur.eat(':')) {
      const value = parseMembership(cur);
      if (cur.eat('|')) return { type: 'objectCompr', key: first, value, body: comprehensionBody(cur, '}'), loc };
      const entries: Array<[Expr, Expr]> = [[first, value]];
      if (cur.eat(',')) entries.push(...commaList(cur, '}', () => objectEntry(cur)));
      else cur.expect('}');
      return { type: 'object', entries, loc };
    }
    if (cur.eat('|')) return { type: 'setCompr', term: first, body: comprehensionBody(cur, '}'), loc };
    const items = cur.eat(',')
      ? [first, ...commaList(cur, '}', () => parseMembership(cur))]
      : (cur.expect('}'), [first]);
    return { type: 'set', items, loc };
  });
}

function objectEntry(cur: TokenCursor): [Expr, Expr] {
  const key = parseMembership(cur);
  cur.expect(':');
  return [key, parseMembership(cur)];
}

function comprehensionBody(cur: TokenCursor, close: string): Literal[] {
  const body = parseQuery(cur, close);
  cur.within('term', () => cur.expect(close));
  return body;
}

/** Items up to `close` (consumed), a trailing comma allowed. */
function commaList<T>(cur: TokenCursor, close: string, item: () => T): T[] {
  const items: T[] = [];
  while (!cur.eat(close)) {
    items.push(item());
    if (!cur.eat(',')) {
      cur.expect(close);
      break;
    }
  }
  return items;
}

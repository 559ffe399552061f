import type { Expr, Literal } from './ast';
import { unsupported } from './errors';
import { parseLiteralExpr, parseMembership, parsePostfix } from './parse-expr';
import { locOf, type TokenCursor } from './token-cursor';

/**
 * The expressions of a body up to `close` (left for the caller), separated by newlines or `;`.
 */
export function parseQuery(cur: TokenCursor, close: string): Literal[] {
  return cur.within('body', () => {
    const literals: Literal[] = [];
    for (;;) {
      while (cur.peek().kind === 'newline' || cur.isPunct(';')) cur.next();
      if (cur.isPunct(close)) return literals;
      if (cur.peek().kind === 'eof') throw cur.error(`expected '${close}' before the end of the file`);
      literals.push(parseLiteral(cur));
      if (!cur.isPunct(close) && cur.peek().kind !== 'newline' && !cur.isPunct(';')) {
        throw cur.error(`expected the end of the expression, a new line or '${close}'`);
      }
    }
  });
}

export function parseLiteral(cur: TokenCursor): Literal {
  const token = cur.peek();
  const loc = locOf(token);
  if (cur.eat('some')) return parseSome(cur, loc);
  if (cur.eat('every')) return parseEvery(cur, loc);
  const negated = cur.eat('not');
  const expr = parseLiteralExpr(cur);
  if (cur.isWord('with')) throw unsupported("the 'with' keyword", locOf(cur.peek()));
  if (cur.isPunct('|')) throw unsupported("the set union operator '|'", locOf(cur.peek()));
  return { type: 'expr', expr, negated, loc };
}

function parseSome(cur: TokenCursor, loc: Literal['loc']): Literal {
  const terms: Expr[] = [parsePostfix(cur)];
  while (cur.eat(',')) terms.push(parsePostfix(cur));
  if (cur.eat('in')) {
    if (terms.length > 2) throw cur.error("'some ... in' takes one or two variables", loc);
    const collection = parseMembership(cur);
    return terms.length === 2
      ? { type: 'someIn', key: terms[0], value: terms[1], collection, loc }
      : { type: 'someIn', value: terms[0], collection, loc };
  }
  const names = terms.map((t) => {
    if (t.type !== 'var') throw cur.error("'some' declares variable names", t.loc);
    return t.name;
  });
  return { type: 'some', names, loc };
}

function parseEvery(cur: TokenCursor, loc: Literal['loc']): Literal {
  const first = cur.expectIdent('a variable after every').text;
  const second = cur.eat(',') ? cur.expectIdent('a variable').text : undefined;
  cur.expect('in');
  const collection = parseMembership(cur);
  cur.expect('{');
  const body = parseQuery(cur, '}');
  cur.expect('}');
  return second === undefined
    ? { type: 'every', value: first, collection, body, loc }
    : { type: 'every', key: first, value: second, collection, body, loc };
}

import type { Expr, Literal, Module, RuleDefinition } from './ast';
import { RegoError, unsupported } from './errors';
import { tokenize } from './lexer';
import { parseLiteral, parseQuery } from './parse-body';
import { parseMembership } from './parse-expr';
import { describe, locOf, TokenCursor } from './token-cursor';

/** Imports that only switch keywords on: gw always knows `in`, `if`, `contains` and `every`. */
const KEYWORD_IMPORTS = new Set([
  'future.keywords',
  'future.keywords.in',
  'future.keywords.if',
  'future.keywords.contains',
  'future.keywords.every',
  'rego.v1',
  'input',
]);

/** Parses a rule file into its package and rule definitions; throws a RegoError with line and column. */
export function parseModule(source: string): Module {
  const cur = new TokenCursor(tokenize(source));
  skipBlank(cur);
  // The reference dashboard's own samples omit the package; the rules are the same either way.
  let packageName = 'dashboard_users';
  if (cur.eat('package')) packageName = dottedName(cur);
  const rules: RuleDefinition[] = [];
  for (;;) {
    skipBlank(cur);
    if (cur.peek().kind === 'eof') break;
    if (cur.isWord('import')) parseImport(cur);
    else if (cur.isWord('package')) throw cur.error('a rule file has one package');
    else rules.push(parseRule(cur));
    const end = cur.peek();
    if (end.kind !== 'newline' && end.kind !== 'eof' && !(end.kind === 'punct' && end.text === ';')) {
      throw cur.error(`expected a new line after the rule, found ${describe(end)}`);
    }
  }
  return { packageName, rules };
}

function skipBlank(cur: TokenCursor): void {
  while (cur.peek().kind === 'newline' || cur.isPunct(';')) cur.next();
}

function dottedName(cur: TokenCursor): string {
  const parts = [cur.expectIdent('a name').text];
  while (cur.eat('.')) parts.push(cur.expectIdent('a name').text);
  return parts.join('.');
}

function parseImport(cur: TokenCursor): void {
  const token = cur.next();
  const name = dottedName(cur);
  if (cur.eat('as')) cur.expectIdent('an alias');
  if (name === 'data' || name.startsWith('data.'))
    throw unsupported(`'import ${name}' (gw passes no data documents, only input)`, locOf(token));
  if (!KEYWORD_IMPORTS.has(name)) throw unsupported(`'import ${name}'`, locOf(token));
}

function parseRule(cur: TokenCursor): RuleDefinition {
  const start = cur.peek();
  const isDefault = cur.eat('default');
  const nameToken = cur.expectIdent('a rule name');
  const name = nameToken.text;
  const loc = locOf(start);
  if (cur.isPunct('.')) throw unsupported(`the dotted rule name '${name}.…'`, locOf(cur.peek()));
  const rule: RuleDefinition = { name, kind: 'complete', isDefault, args: [], value: trueAt(loc), body: [], loc };
  if (cur.isPunct('(')) {
    if (isDefault) throw unsupported('a default function', loc);
    cur.next();
    rule.kind = 'function';
    rule.args = cur.within('term', () => argumentList(cur));
  } else if (cur.isPunct('[')) {
    cur.next();
    rule.key = cur.within('term', () => parseMembership(cur));
    cur.within('term', () => cur.expect(']'));
    rule.kind = 'partialSet';
  } else if (cur.isWord('contains') && !(cur.peekSecond().kind === 'punct' && cur.peekSecond().text === '(')) {
    cur.next();
    rule.key = parseMembership(cur);
    rule.kind = 'partialSet';
  }
  if (cur.isPunct('=') || cur.isPunct(':=')) {
    cur.next();
    rule.value = parseMembership(cur);
    if (rule.kind === 'partialSet') rule.kind = 'partialObject';
  } else if (isDefault) {
    throw cur.error(`a default rule needs a value: default ${name} := <value>`);
  }
  if (isDefault && rule.kind !== 'complete')
    throw unsupported(`a default value for the ${rule.kind === 'partialSet' ? 'set' : 'object'} rule '${name}'`, loc);
  if (!isDefault) rule.body = parseRuleBody(cur);
  return rule;
}

function argumentList(cur: TokenCursor): Expr[] {
  const args: Expr[] = [];
  while (!cur.eat(')')) {
    args.push(parseMembership(cur));
    if (!cur.eat(',')) {
      cur.expect(')');
      break;
    }
  }
  return args;
}

/** `{ ... }`, `if { ... }`, `if <expression>`, or nothing (a fact). */
function parseRuleBody(cur: TokenCursor): Literal[] {
  let body: Literal[] = [];
  if (cur.eat('if')) {
    body = cur.isPunct('{') ? bracedBody(cur) : [cur.within('body', () => parseLiteral(cur))];
  } else if (cur.isPunct('{')) {
    body = bracedBody(cur);
  }
  if (cur.isPunct('{')) throw unsupported('a rule with several bodies in a row', locOf(cur.peek()));
  if (cur.isWord('else')) throw unsupported("the 'else' keyword", locOf(cur.peek()));
  return body;
}

function bracedBody(cur: TokenCursor): Literal[] {
  const open = cur.expect('{');
  const body = parseQuery(cur, '}');
  cur.expect('}');
  if (body.length === 0) throw new RegoError('syntax', 'a rule body may not be empty', locOf(open));
  return body;
}

function trueAt(loc: RuleDefinition['loc']): Expr {
  return { type: 'scalar', value: true, loc };
}

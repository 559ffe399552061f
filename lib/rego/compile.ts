import type { Expr, Literal, Module, RuleDefinition } from './ast';
import { BUILTINS, REFERENCE_ONLY_FUNCTIONS } from './builtins';
import { RegoError, unsupported, type Location } from './errors';
import type { RuleTable } from './evaluator';

/**
 * Checks a parsed module against gw's subset and groups its rules: every called function
 * exists with that many arguments, no `data`, one kind and one default per rule name, and no
 * recursion (which Rego forbids, and which keeps every evaluation finite).
 */
export function compileModule(module: Module): RuleTable {
  const table: RuleTable = { definitions: new Map(), defaults: new Map() };
  for (const rule of module.rules) addRule(table, rule);
  const dependencies = new Map<string, Map<string, Location>>();
  for (const rule of module.rules) {
    const uses = dependencies.get(rule.name) ?? new Map<string, Location>();
    dependencies.set(rule.name, uses);
    for (const expr of ruleExprs(rule)) checkExpr(expr, table, uses);
  }
  refuseRecursion(dependencies);
  return table;
}

function addRule(table: RuleTable, rule: RuleDefinition): void {
  if (rule.isDefault) {
    if (table.defaults.has(rule.name))
      throw new RegoError('invalid', `the rule '${rule.name}' has two default values`, rule.loc);
    table.defaults.set(rule.name, rule);
    const others = table.definitions.get(rule.name);
    if (others && others[0].kind !== 'complete') throw conflictingKinds(rule);
    return;
  }
  const others = table.definitions.get(rule.name) ?? [];
  if (others.length > 0 && others[0].kind !== rule.kind) throw conflictingKinds(rule);
  if (rule.kind !== 'complete' && table.defaults.has(rule.name)) throw conflictingKinds(rule);
  if (rule.kind === 'function' && others.length > 0 && others[0].args.length !== rule.args.length) {
    throw new RegoError(
      'invalid',
      `the function '${rule.name}' is defined with ${others[0].args.length} and with ${rule.args.length} arguments`,
      rule.loc,
    );
  }
  table.definitions.set(rule.name, [...others, rule]);
}

function conflictingKinds(rule: RuleDefinition): RegoError {
  return new RegoError(
    'invalid',
    `the rule '${rule.name}' is defined in two different forms (value, set, object or function)`,
    rule.loc,
  );
}

function ruleExprs(rule: RuleDefinition): Expr[] {
  return [...rule.args, ...(rule.key ? [rule.key] : []), rule.value, ...rule.body.flatMap(literalExprs)];
}

function literalExprs(lit: Literal): Expr[] {
  switch (lit.type) {
    case 'some':
      return [];
    case 'someIn':
      return [lit.value, lit.collection, ...(lit.key ? [lit.key] : [])];
    case 'every':
      return [lit.collection, ...lit.body.flatMap(literalExprs)];
    default:
      return [lit.expr];
  }
}

function checkExpr(expr: Expr, table: RuleTable, uses: Map<string, Location>): void {
  switch (expr.type) {
    case 'var':
      if (expr.name === 'data') throw unsupported("the 'data' document (gw passes only input)", expr.loc);
      if (table.definitions.get(expr.name)?.[0].kind === 'function')
        throw new RegoError('invalid', `the function '${expr.name}' is used without arguments`, expr.loc);
      if (table.definitions.has(expr.name) || table.defaults.has(expr.name)) uses.set(expr.name, expr.loc);
      return;
    case 'call':
      checkCall(expr, table, uses);
      break;
    default:
      break;
  }
  for (const child of children(expr)) checkExpr(child, table, uses);
}

function checkCall(expr: Extract<Expr, { type: 'call' }>, table: RuleTable, uses: Map<string, Location>): void {
  const own = table.definitions.get(expr.name);
  if (own && own[0].kind !== 'function')
    throw new RegoError('invalid', `'${expr.name}' is a rule, not a function`, expr.loc);
  const arity = own ? own[0].args.length : BUILTINS[expr.name]?.arity;
  if (arity === undefined) {
    if (REFERENCE_ONLY_FUNCTIONS.has(expr.name))
      throw unsupported(`the reference dashboard's function '${expr.name}'`, expr.loc);
    throw unsupported(`the built-in function '${expr.name}'`, expr.loc);
  }
  if (arity !== expr.args.length)
    throw new RegoError('invalid', `'${expr.name}' takes ${arity} argument(s), not ${expr.args.length}`, expr.loc);
  if (own) uses.set(expr.name, expr.loc);
}

function children(expr: Expr): Expr[] {
  switch (expr.type) {
    case 'ref':
      return [expr.head, ...expr.path];
    case 'call':
      return expr.args;
    case 'array':
    case 'set':
      return expr.items;
    case 'object':
      return expr.entries.flat();
    case 'arrayCompr':
    case 'setCompr':
      return [expr.term, ...expr.body.flatMap(literalExprs)];
    case 'objectCompr':
      return [expr.key, expr.value, ...expr.body.flatMap(literalExprs)];
    case 'binary':
      return [expr.left, expr.right];
    case 'unary':
      return [expr.arg];
    case 'in':
      return [expr.value, expr.collection];
    default:
      return [];
  }
}

/** Depth-first search for a cycle in "rule uses rule". */
function refuseRecursion(dependencies: Map<string, Map<string, Location>>): void {
  const done = new Set<string>();
  const visiting = new Set<string>();
  const visit = (name: string): void => {
    if (done.has(name)) return;
    visiting.add(name);
    for (const [used, loc] of dependencies.get(name) ?? []) {
      if (visiting.has(used))
        throw new RegoError('invalid', `the rule '${used}' depends on itself (Rego does not allow recursion)`, loc);
      visit(used);
    }
    visiting.delete(name);
    done.add(name);
  };
  for (const name of dependencies.keys()) visit(name);
}

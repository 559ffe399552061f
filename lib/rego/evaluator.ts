import { compileTenantPattern, type TenantPattern } from '../patterns/tenant-pattern';
import type { Expr, Literal, RuleDefinition } from './ast';
import { BUILTINS, type BuiltinContext } from './builtins';
import { arithmetic, entries, index, membership } from './collections';
import { RegoEvalError } from './errors';
import { canonical, compare, equal, isObject, RegoSet, type Value } from './values';

/** How much one evaluation may do before it is stopped. */
export interface EvalLimits {
  /** literals, iterations and calls; @default 100000 */
  maxSteps: number;
  /** wall-clock time; @default 200 */
  maxMillis: number;
}

export const DEFAULT_LIMITS: EvalLimits = { maxSteps: 100_000, maxMillis: 200 };

const UNBOUND = Symbol('unbound');

/**
 * Variable bindings as a persistent linked list: binding is O(1) and never copies, and bodies
 * bind few variables, so a lookup walks a short chain.
 */
class Env {
  static readonly EMPTY = new Env(undefined, '', UNBOUND);

  private constructor(
    private readonly parent: Env | undefined,
    private readonly name: string,
    private readonly value: Value | typeof UNBOUND,
  ) {}

  with(name: string, value: Value | typeof UNBOUND): Env {
    return new Env(this, name, value);
  }

  /** the binding, UNBOUND when declared without a value, undefined when never mentioned */
  get(name: string): Value | typeof UNBOUND | undefined {
    for (let env: Env | undefined = this; env && env !== Env.EMPTY; env = env.parent) if (env.name === name) return env.value;
    return undefined;
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }
}
type Solutions = Generator<[Value, Env]>;

/** Rules grouped by name, defaults apart (lib/rego/compile.ts). */
export interface RuleTable {
  definitions: Map<string, RuleDefinition[]>;
  defaults: Map<string, RuleDefinition>;
}

/**
 * One evaluation against one input: backtracking over generators, rule values memoised, every
 * step counted so that a rule set that explodes stops with an error instead of hanging.
 */
export class Evaluation implements BuiltinContext {
  private steps = 0;
  private readonly deadline: number;
  private readonly memo = new Map<string, { value: Value | undefined }>();
  private readonly patterns = new Map<string, TenantPattern>();

  constructor(
    private readonly rules: RuleTable,
    private readonly input: Value | undefined,
    private readonly limits: EvalLimits = DEFAULT_LIMITS,
  ) {
    this.deadline = Date.now() + limits.maxMillis;
  }

  charge(steps: number): void {
    this.steps += steps;
    if (this.steps > this.limits.maxSteps) throw new RegoEvalError('limit', `evaluation stopped after ${this.limits.maxSteps} steps`);
    // The clock is read every 256 steps: cheap, and still within a millisecond of the limit.
    if ((this.steps & 255) < steps && Date.now() > this.deadline) throw new RegoEvalError('limit', `evaluation stopped after ${this.limits.maxMillis} ms`);
  }

  pattern(source: string): TenantPattern {
    let compiled = this.patterns.get(source);
    if (!compiled) {
      compiled = compileTenantPattern(source);
      this.patterns.set(source, compiled);
    }
    return compiled;
  }

  /** The value of a rule (complete, partial set or partial object), or undefined. */
  ruleValue(name: string): Value | undefined {
    const known = this.memo.get(name);
    if (known) return known.value;
    const definitions = this.rules.definitions.get(name) ?? [];
    const kind = definitions[0]?.kind ?? 'complete';
    let value: Value | undefined;
    if (kind === 'partialSet') value = this.partialSet(definitions);
    else if (kind === 'partialObject') value = this.partialObject(definitions);
    else value = this.complete(name, definitions);
    this.memo.set(name, { value });
    return value;
  }

  private complete(name: string, definitions: RuleDefinition[]): Value | undefined {
    const found = this.distinctValues(name, definitions.map((d) => ({ def: d, env: Env.EMPTY })));
    if (found !== undefined) return found;
    const fallback = this.rules.defaults.get(name);
    return fallback ? firstValue(this.expr(fallback.value, Env.EMPTY)) : undefined;
  }

  private partialSet(definitions: RuleDefinition[]): Value {
    const set = new RegoSet();
    for (const def of definitions) for (const env of this.body(def.body, 0, Env.EMPTY)) for (const [member] of this.expr(def.key!, env)) set.add(member);
    return set;
  }

  private partialObject(definitions: RuleDefinition[]): Value {
    const out: { [key: string]: Value } = {};
    for (const def of definitions) {
      for (const env of this.body(def.body, 0, Env.EMPTY)) {
        for (const [key, envK] of this.expr(def.key!, env)) {
          for (const [value] of this.expr(def.value, envK)) {
            if (typeof key !== 'string') throw new RegoEvalError('unsafe', `the object rule '${def.name}' needs string keys`);
            if (key in out && !equal(out[key], value)) throw new RegoEvalError('conflict', `the object rule '${def.name}' gives two values for the key '${key}'`);
            out[key] = value;
          }
        }
      }
    }
    return out;
  }

  /** The one value that the bodies produce; two different ones are a conflict, as in OPA. */
  private distinctValues(name: string, starts: Array<{ def: RuleDefinition; env: Env }>): Value | undefined {
    let found: Value | undefined;
    for (const { def, env: start } of starts) {
      for (const env of this.body(def.body, 0, start)) {
        for (const [value] of this.expr(def.value, env)) {
          if (found !== undefined && !equal(found, value)) throw new RegoEvalError('conflict', `'${name}' produced two different values (${canonical(found)} and ${canonical(value)})`);
          found = value;
        }
      }
    }
    return found;
  }

  *body(literals: Literal[], at: number, env: Env): Generator<Env> {
    if (at === literals.length) {
      yield env;
      return;
    }
    for (const next of this.literal(literals[at], env)) yield* this.body(literals, at + 1, next);
  }

  private *literal(lit: Literal, env: Env): Generator<Env> {
    this.charge(1);
    switch (lit.type) {
      case 'some':
        yield declare(env, lit.names);
        return;
      case 'someIn':
        for (const [collection, env1] of this.expr(lit.collection, env)) {
          const fresh = declare(env1, [...varsOf(lit.value), ...(lit.key ? varsOf(lit.key) : [])]);
          for (const [key, value] of entries(collection)) {
            this.charge(1);
            for (const env2 of lit.key ? this.unify(lit.key, key, fresh) : [fresh]) yield* this.unify(lit.value, value, env2);
          }
        }
        return;
      case 'every':
        for (const [collection, env1] of this.expr(lit.collection, env)) {
          for (const [key, value] of entries(collection)) {
            this.charge(1);
            let scope = bind(env1, lit.value, value);
            if (lit.key) scope = bind(scope, lit.key, key);
            if (!hasSolution(this.body(lit.body, 0, scope))) return;
          }
          yield env1;
        }
        return;
      default:
        if (lit.negated) {
          if (!hasSolution(this.positive(lit.expr, env))) yield env;
          return;
        }
        yield* this.positive(lit.expr, env);
    }
  }

  private *positive(expr: Expr, env: Env): Generator<Env> {
    if (expr.type === 'binary' && expr.op === ':=') {
      for (const [value, env1] of this.expr(expr.right, env)) yield* this.unify(expr.left, value, declare(env1, varsOf(expr.left)));
      return;
    }
    if (expr.type === 'binary' && expr.op === '=') {
      yield* this.unifyBoth(expr.left, expr.right, env);
      return;
    }
    for (const [value, env1] of this.expr(expr, env)) if (value !== false) yield env1;
  }

  private *unifyBoth(left: Expr, right: Expr, env: Env): Generator<Env> {
    if (this.hasUnbound(left, env) && !this.hasUnbound(right, env)) {
      for (const [value, env1] of this.expr(right, env)) yield* this.unify(left, value, env1);
    } else {
      for (const [value, env1] of this.expr(left, env)) yield* this.unify(right, value, env1);
    }
  }

  /** Binds the unbound variables of `pattern` so that it equals `value`. */
  private *unify(pattern: Expr, value: Value, env: Env): Generator<Env> {
    if (pattern.type === 'var' && this.isUnbound(pattern.name, env)) {
      yield pattern.name === '_' ? env : bind(env, pattern.name, value);
    } else if (pattern.type === 'array' && this.hasUnbound(pattern, env)) {
      if (Array.isArray(value) && value.length === pattern.items.length) yield* this.unifyEach(pattern.items, value, 0, env);
    } else if (pattern.type === 'object' && this.hasUnbound(pattern, env)) {
      if (!isObject(value) || Object.keys(value).length !== pattern.entries.length) return;
      const keys = pattern.entries.map(([k]) => firstValue(this.expr(k, env)));
      if (!keys.every((k): k is string => typeof k === 'string' && k in value)) return;
      yield* this.unifyEach(pattern.entries.map(([, v]) => v), keys.map((k) => value[k]), 0, env);
    } else {
      for (const [own, env1] of this.expr(pattern, env)) if (equal(own, value)) yield env1;
    }
  }

  private *unifyEach(patterns: Expr[], values: Value[], at: number, env: Env): Generator<Env> {
    if (at === patterns.length) {
      yield env;
      return;
    }
    for (const env1 of this.unify(patterns[at], values[at], env)) yield* this.unifyEach(patterns, values, at + 1, env1);
  }

  private isUnbound(name: string, env: Env): boolean {
    if (name === '_') return true;
    if (env.has(name)) return env.get(name) === UNBOUND;
    return !this.rules.definitions.has(name) && !this.rules.defaults.has(name) && name !== 'input';
  }

  private hasUnbound(expr: Expr, env: Env): boolean {
    if (expr.type === 'var') return this.isUnbound(expr.name, env);
    if (expr.type === 'array') return expr.items.some((item) => this.hasUnbound(item, env));
    if (expr.type === 'object') return expr.entries.some(([, v]) => this.hasUnbound(v, env));
    return false;
  }

  /** Every value of an expression, with the bindings that produce it. */
  *expr(expr: Expr, env: Env): Solutions {
    switch (expr.type) {
      case 'scalar':
        yield [expr.value, env];
        return;
      case 'var':
        yield* this.variable(expr.name, env);
        return;
      case 'ref':
        for (const [head, env1] of this.expr(expr.head, env)) yield* this.walk(head, expr.path, 0, env1);
        return;
      case 'call':
        for (const [args, env1] of this.each(expr.args, 0, env, [])) yield* this.call(expr.name, args, env1);
        return;
      case 'array':
        for (const [items, env1] of this.each(expr.items, 0, env, [])) yield [items, env1];
        return;
      case 'set':
        for (const [items, env1] of this.each(expr.items, 0, env, [])) yield [new RegoSet(items), env1];
        return;
      case 'object':
        yield* this.object(expr.entries, env);
        return;
      default:
        yield* this.compound(expr, env);
    }
  }

  private *variable(name: string, env: Env): Solutions {
    const bound = env.get(name);
    if (bound !== undefined && bound !== UNBOUND) {
      yield [bound, env];
      return;
    }
    if (bound === UNBOUND || name === '_') throw new RegoEvalError('unsafe', `the variable '${name}' is used before it has a value`);
    if (this.rules.definitions.has(name) || this.rules.defaults.has(name)) {
      const value = this.ruleValue(name);
      if (value !== undefined) yield [value, env];
      return;
    }
    if (name === 'input') {
      if (this.input !== undefined) yield [this.input, env];
      return;
    }
    throw new RegoEvalError('unsafe', `the variable '${name}' is used before it has a value`);
  }

  /** `x.a[b][_]`: a path step with an unbound variable iterates over the collection's keys. */
  private *walk(value: Value, path: Expr[], at: number, env: Env): Solutions {
    if (at === path.length) {
      yield [value, env];
      return;
    }
    this.charge(1);
    const step = path[at];
    if (step.type === 'var' && this.isUnbound(step.name, env)) {
      for (const [key, child] of entries(value)) yield* this.walk(child, path, at + 1, step.name === '_' ? env : bind(env, step.name, key));
      return;
    }
    for (const [key, env1] of this.expr(step, env)) {
      const child = index(value, key);
      if (child !== undefined) yield* this.walk(child, path, at + 1, env1);
    }
  }

  private *each(items: Expr[], at: number, env: Env, done: Value[]): Generator<[Value[], Env]> {
    if (at === items.length) {
      yield [done, env];
      return;
    }
    for (const [value, env1] of this.expr(items[at], env)) yield* this.each(items, at + 1, env1, [...done, value]);
  }

  private *object(pairs: Array<[Expr, Expr]>, env: Env): Solutions {
    for (const [flat, env1] of this.each(pairs.flat(), 0, env, [])) {
      const out: { [key: string]: Value } = {};
      for (let i = 0; i < flat.length; i += 2) {
        const key = flat[i];
        if (typeof key !== 'string') throw new RegoEvalError('unsafe', 'object keys must be strings in gw\'s policy engine');
        out[key] = flat[i + 1];
      }
      yield [out, env1];
    }
  }

  private *call(name: string, args: Value[], env: Env): Solutions {
    this.charge(1);
    const functions = this.rules.definitions.get(name);
    if (functions) {
      const key = `${name}(${args.map(canonical).join(',')})`;
      let known = this.memo.get(key);
      if (!known) {
        const starts = functions.flatMap((def) => [...this.unifyEach(def.args, args, 0, Env.EMPTY)].map((start) => ({ def, env: start })));
        known = { value: this.distinctValues(name, starts) };
        this.memo.set(key, known);
      }
      if (known.value !== undefined) yield [known.value, env];
      return;
    }
    let result: Value | undefined;
    try {
      result = BUILTINS[name].fn(args, this);
    } catch (err) {
      if (err instanceof RegoEvalError) throw err;
      result = undefined; // a built-in's error makes the expression undefined, as in OPA
    }
    if (result !== undefined) yield [result, env];
  }

  private *compound(expr: Expr, env: Env): Solutions {
    if (expr.type === 'unary') {
      for (const [value, env1] of this.expr(expr.arg, env)) if (typeof value === 'number') yield [-value, env1];
    } else if (expr.type === 'in') {
      for (const [value, env1] of this.expr(expr.value, env)) for (const [collection, env2] of this.expr(expr.collection, env1)) yield [membership(value, collection), env2];
    } else if (expr.type === 'binary') {
      if (expr.op === ':=' || expr.op === '=') throw new RegoEvalError('unsafe', `'${expr.op}' may only stand at the top of an expression`);
      for (const [left, env1] of this.expr(expr.left, env)) {
        for (const [right, env2] of this.expr(expr.right, env1)) {
          const result = operate(expr.op, left, right);
          if (result !== undefined) yield [result, env2];
        }
      }
    } else if (expr.type === 'arrayCompr' || expr.type === 'setCompr' || expr.type === 'objectCompr') {
      yield [this.comprehension(expr, env), env];
    }
  }

  private comprehension(expr: Extract<Expr, { type: 'arrayCompr' | 'setCompr' | 'objectCompr' }>, env: Env): Value {
    const items: Value[] = [];
    const object: { [key: string]: Value } = {};
    for (const env1 of this.body(expr.body, 0, env)) {
      if (expr.type === 'objectCompr') {
        for (const [key, env2] of this.expr(expr.key, env1)) for (const [value] of this.expr(expr.value, env2)) if (typeof key === 'string') object[key] = value;
      } else {
        for (const [value] of this.expr(expr.term, env1)) items.push(value);
      }
    }
    if (expr.type === 'objectCompr') return object;
    return expr.type === 'setCompr' ? new RegoSet(items) : items;
  }
}

function operate(op: string, left: Value, right: Value): Value | undefined {
  switch (op) {
    case '==':
      return equal(left, right);
    case '!=':
      return !equal(left, right);
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const order = compare(left, right);
      if (order === undefined) return undefined;
      return op === '<' ? order < 0 : op === '<=' ? order <= 0 : op === '>' ? order > 0 : order >= 0;
    }
    default:
      return arithmetic(op, left, right);
  }
}

/** The first value of an expression, or undefined. */
function firstValue(solutions: Solutions): Value | undefined {
  for (const [value] of solutions) return value;
  return undefined;
}

function hasSolution(solutions: Iterable<unknown>): boolean {
  for (const _ of solutions) return true;
  return false;
}

function bind(env: Env, name: string, value: Value): Env {
  return env.with(name, value);
}

function declare(env: Env, names: string[]): Env {
  let out = env;
  for (const name of names) if (name !== '_') out = out.with(name, UNBOUND);
  return out;
}

function varsOf(expr: Expr): string[] {
  if (expr.type === 'var') return [expr.name];
  if (expr.type === 'array') return expr.items.flatMap(varsOf);
  if (expr.type === 'object') return expr.entries.flatMap(([, v]) => varsOf(v));
  return [];
}

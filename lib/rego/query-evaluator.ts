import type { Expr, Literal } from './ast';
import { BUILTINS } from './builtins';
import type { EvalBudget } from './budget';
import { entries, index, membership, operate } from './collections';
import { bind, declare, type Env, UNBOUND, varsOf } from './env';
import { RegoEvalError } from './errors';
import { equal, isObject, RegoSet, type Value } from './values';

export type Solutions = Generator<[Value, Env]>;

/**
 * Evaluation of bodies and expressions by backtracking over generators: each solution is a set
 * of bindings, an unbound variable in a reference iterates, `=` unifies, and every step is
 * charged to the budget. What rules and functions are is left to the subclass.
 */
export abstract class QueryEvaluator {
  constructor(
    protected readonly budget: EvalBudget,
    private readonly input: Value | undefined,
  ) {}

  /** whether `name` is a rule of the module (not a function) */
  protected abstract isRule(name: string): boolean;
  /** the value of a rule, or undefined */
  abstract ruleValue(name: string): Value | undefined;
  protected abstract isFunction(name: string): boolean;
  protected abstract functionValue(name: string, args: Value[]): Value | undefined;

  /** Every way the literals hold from `env` on, as bindings. */
  *body(literals: Literal[], at: number, env: Env): Generator<Env> {
    if (at === literals.length) {
      yield env;
      return;
    }
    for (const next of this.literal(literals[at], env)) yield* this.body(literals, at + 1, next);
  }

  private *literal(lit: Literal, env: Env): Generator<Env> {
    this.budget.charge(1);
    switch (lit.type) {
      case 'some':
        yield declare(env, lit.names);
        return;
      case 'someIn':
        for (const [collection, env1] of this.expr(lit.collection, env)) {
          const fresh = declare(env1, [...varsOf(lit.value), ...(lit.key ? varsOf(lit.key) : [])]);
          for (const [key, value] of entries(collection)) {
            this.budget.charge(1);
            for (const env2 of lit.key ? this.unify(lit.key, key, fresh) : [fresh])
              yield* this.unify(lit.value, value, env2);
          }
        }
        return;
      case 'every':
        for (const [collection, env1] of this.expr(lit.collection, env)) {
          for (const [key, value] of entries(collection)) {
            this.budget.charge(1);
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
      for (const [value, env1] of this.expr(expr.right, env))
        yield* this.unify(expr.left, value, declare(env1, varsOf(expr.left)));
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
      if (Array.isArray(value) && value.length === pattern.items.length)
        yield* this.unifyEach(pattern.items, value, 0, env);
    } else if (pattern.type === 'object' && this.hasUnbound(pattern, env)) {
      if (!isObject(value) || Object.keys(value).length !== pattern.entries.length) return;
      const keys = pattern.entries.map(([k]) => firstValue(this.expr(k, env)));
      if (!keys.every((k): k is string => typeof k === 'string' && k in value)) return;
      yield* this.unifyEach(
        pattern.entries.map(([, v]) => v),
        keys.map((k) => value[k]),
        0,
        env,
      );
    } else {
      for (const [own, env1] of this.expr(pattern, env)) if (equal(own, value)) yield env1;
    }
  }

  protected *unifyEach(patterns: Expr[], values: Value[], at: number, env: Env): Generator<Env> {
    if (at === patterns.length) {
      yield env;
      return;
    }
    for (const env1 of this.unify(patterns[at], values[at], env)) yield* this.unifyEach(patterns, values, at + 1, env1);
  }

  private isUnbound(name: string, env: Env): boolean {
    if (name === '_') return true;
    if (env.has(name)) return env.get(name) === UNBOUND;
    return !this.isRule(name) && name !== 'input';
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
    if (bound === UNBOUND || name === '_')
      throw new RegoEvalError('unsafe', `the variable '${name}' is used before it has a value`);
    if (this.isRule(name)) {
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
    this.budget.charge(1);
    const step = path[at];
    if (step.type === 'var' && this.isUnbound(step.name, env)) {
      for (const [key, child] of entries(value))
        yield* this.walk(child, path, at + 1, step.name === '_' ? env : bind(env, step.name, key));
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
        if (typeof key !== 'string')
          throw new RegoEvalError('unsafe', "object keys must be strings in gw's policy engine");
        out[key] = flat[i + 1];
      }
      yield [out, env1];
    }
  }

  private *call(name: string, args: Value[], env: Env): Solutions {
    this.budget.charge(1);
    let result: Value | undefined;
    if (this.isFunction(name)) {
      result = this.functionValue(name, args);
    } else {
      try {
        result = BUILTINS[name].fn(args, this.budget);
      } catch (err) {
        if (err instanceof RegoEvalError) throw err;
        result = undefined; // a built-in's error makes the expression undefined, as in OPA
      }
    }
    if (result !== undefined) yield [result, env];
  }

  private *compound(expr: Expr, env: Env): Solutions {
    if (expr.type === 'unary') {
      for (const [value, env1] of this.expr(expr.arg, env)) if (typeof value === 'number') yield [-value, env1];
    } else if (expr.type === 'in') {
      for (const [value, env1] of this.expr(expr.value, env))
        for (const [collection, env2] of this.expr(expr.collection, env1)) yield [membership(value, collection), env2];
    } else if (expr.type === 'binary') {
      if (expr.op === ':=' || expr.op === '=')
        throw new RegoEvalError('unsafe', `'${expr.op}' may only stand at the top of an expression`);
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
        for (const [key, env2] of this.expr(expr.key, env1))
          for (const [value] of this.expr(expr.value, env2)) if (typeof key === 'string') object[key] = value;
      } else {
        for (const [value] of this.expr(expr.term, env1)) items.push(value);
      }
    }
    if (expr.type === 'objectCompr') return object;
    return expr.type === 'setCompr' ? new RegoSet(items) : items;
  }
}

/** The first value of an expression, or undefined. */
export function firstValue(solutions: Solutions): Value | undefined {
  for (const [value] of solutions) return value;
  return undefined;
}

function hasSolution(solutions: Iterable<unknown>): boolean {
  for (const _ of solutions) return true;
  return false;
}

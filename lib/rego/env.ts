import type { Expr } from './ast';
import type { Value } from './values';

/** A variable declared (`some x`, `x :=`) that has no value yet. */
export const UNBOUND = Symbol('unbound');

/**
 * Variable bindings as a persistent linked list: binding is O(1) and never copies, and bodies
 * bind few variables, so a lookup walks a short chain.
 */
export class Env {
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
    for (let env: Env | undefined = this; env && env !== Env.EMPTY; env = env.parent)
      if (env.name === name) return env.value;
    return undefined;
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }
}

export function bind(env: Env, name: string, value: Value): Env {
  return env.with(name, value);
}

/** Declares names as fresh local variables (shadowing rules and outer bindings). */
export function declare(env: Env, names: string[]): Env {
  let out = env;
  for (const name of names) if (name !== '_') out = out.with(name, UNBOUND);
  return out;
}

/** The variables a pattern (`x`, `[a, b]`, `{"k": v}`) binds. */
export function varsOf(expr: Expr): string[] {
  if (expr.type === 'var') return [expr.name];
  if (expr.type === 'array') return expr.items.flatMap(varsOf);
  if (expr.type === 'object') return expr.entries.flatMap(([, v]) => varsOf(v));
  return [];
}

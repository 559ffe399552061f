import type { RuleDefinition } from './ast';
import { DEFAULT_LIMITS, EvalBudget, type EvalLimits } from './budget';
import { Env } from './env';
import { RegoEvalError } from './errors';
import { firstValue, QueryEvaluator } from './query-evaluator';
import { canonical, equal, RegoSet, type Value } from './values';

export { DEFAULT_LIMITS, type EvalLimits } from './budget';

/** Rules grouped by name, defaults apart (lib/rego/compile.ts). */
export interface RuleTable {
  definitions: Map<string, RuleDefinition[]>;
  defaults: Map<string, RuleDefinition>;
}

/**
 * One evaluation of a module against one input: rule and function values, memoised (rules
 * depend only on the input; Rego forbids recursion, refused at compile time).
 */
export class Evaluation extends QueryEvaluator {
  private readonly memo = new Map<string, { value: Value | undefined }>();

  constructor(
    private readonly rules: RuleTable,
    input: Value | undefined,
    limits: EvalLimits = DEFAULT_LIMITS,
  ) {
    super(new EvalBudget(limits), input);
  }

  protected isRule(name: string): boolean {
    return (
      (this.rules.definitions.has(name) && this.rules.definitions.get(name)![0].kind !== 'function') ||
      this.rules.defaults.has(name)
    );
  }

  protected isFunction(name: string): boolean {
    return this.rules.definitions.get(name)?.[0].kind === 'function';
  }

  /** A function's value for these arguments: every definition whose parameters match is tried. */
  protected functionValue(name: string, args: Value[]): Value | undefined {
    const key = `${name}(${args.map(canonical).join(',')})`;
    let known = this.memo.get(key);
    if (!known) {
      const definitions = this.rules.definitions.get(name)!;
      const starts = definitions.flatMap((def) =>
        [...this.unifyEach(def.args, args, 0, Env.EMPTY)].map((start) => ({ def, env: start })),
      );
      known = { value: this.distinctValues(name, starts) };
      this.memo.set(key, known);
    }
    return known.value;
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
    const found = this.distinctValues(
      name,
      definitions.map((d) => ({ def: d, env: Env.EMPTY })),
    );
    if (found !== undefined) return found;
    const fallback = this.rules.defaults.get(name);
    return fallback ? firstValue(this.expr(fallback.value, Env.EMPTY)) : undefined;
  }

  private partialSet(definitions: RuleDefinition[]): Value {
    const set = new RegoSet();
    for (const def of definitions)
      for (const env of this.body(def.body, 0, Env.EMPTY))
        for (const [member] of this.expr(def.key!, env)) set.add(member);
    return set;
  }

  private partialObject(definitions: RuleDefinition[]): Value {
    const out: { [key: string]: Value } = {};
    for (const def of definitions) {
      for (const env of this.body(def.body, 0, Env.EMPTY)) {
        for (const [key, envK] of this.expr(def.key!, env)) {
          for (const [value] of this.expr(def.value, envK)) {
            if (typeof key !== 'string')
              throw new RegoEvalError('unsafe', `the object rule '${def.name}' needs string keys`);
            if (key in out && !equal(out[key], value))
              throw new RegoEvalError(
                'conflict',
                `the object rule '${def.name}' gives two values for the key '${key}'`,
              );
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
          if (found !== undefined && !equal(found, value))
            throw new RegoEvalError(
              'conflict',
              `'${name}' produced two different values (${canonical(found)} and ${canonical(value)})`,
            );
          found = value;
        }
      }
    }
    return found;
  }
}

import { compileModule } from './compile';
import { RegoError } from './errors';
import { DEFAULT_LIMITS, Evaluation, type EvalLimits, type RuleTable } from './evaluator';
import { parseModule } from './parser';
import { fromJson, RegoSet, toJson, type Value } from './values';

export { RegoError, RegoEvalError } from './errors';
export type { EvalLimits } from './evaluator';

/** What a `deny` rule that is just `true` says. */
export const GENERIC_DENIAL = "Denied by the organisation's policy rules";

/** A rule file parsed and checked once; evaluated many times, each evaluation bounded. */
export class PolicyProgram {
  private constructor(
    readonly packageName: string,
    private readonly rules: RuleTable,
  ) {}

  /** Throws a RegoError (line and column) when the file is not Rego or not in gw's subset. */
  static compile(source: string): PolicyProgram {
    const module = parseModule(source);
    return new PolicyProgram(module.packageName, compileModule(module));
  }

  hasRule(name: string): boolean {
    return this.rules.definitions.has(name) || this.rules.defaults.has(name);
  }

  /** Where the rule is first defined, or undefined. */
  ruleLocation(name: string): { line: number; column: number } | undefined {
    return (this.rules.definitions.get(name)?.[0] ?? this.rules.defaults.get(name))?.loc;
  }

  /** The JSON value of a rule for this input (sets as sorted arrays), or undefined. */
  evaluate(ruleName: string, input: unknown, limits: EvalLimits = DEFAULT_LIMITS): unknown {
    if (!this.hasRule(ruleName)) return undefined;
    const value = new Evaluation(this.rules, fromJson(input), limits).ruleValue(ruleName);
    return value === undefined ? undefined : toJson(value);
  }

  /**
   * The messages of the `deny` rule for this input: a set's members (text as is, anything else
   * as JSON), a string, or a generic message for `true`. None means allowed.
   */
  denials(input: unknown, limits: EvalLimits = DEFAULT_LIMITS): string[] {
    if (!this.hasRule('deny')) return [];
    const value = new Evaluation(this.rules, fromJson(input), limits).ruleValue('deny');
    return messagesOf(value);
  }
}

function messagesOf(value: Value | undefined): string[] {
  if (value === undefined || value === false || value === null) return [];
  if (value === true) return [GENERIC_DENIAL];
  if (typeof value === 'string') return [value];
  if (value instanceof RegoSet)
    return value.values().map((m) => (typeof m === 'string' ? m : JSON.stringify(toJson(m))));
  if (Array.isArray(value)) return value.length === 0 ? [] : [JSON.stringify(toJson(value))];
  return [JSON.stringify(toJson(value))];
}

export function isRegoError(err: unknown): err is RegoError {
  return err instanceof RegoError;
}

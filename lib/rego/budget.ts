import { compileTenantPattern, type TenantPattern } from '../patterns/tenant-pattern';
import type { BuiltinContext } from './builtins';
import { RegoEvalError } from './errors';

/** How much one evaluation may do before it is stopped. */
export interface EvalLimits {
  /** literals, iterations and calls; @default 100000 */
  maxSteps: number;
  /** wall-clock time; @default 200 */
  maxMillis: number;
}

export const DEFAULT_LIMITS: EvalLimits = { maxSteps: 100_000, maxMillis: 200 };

/**
 * What one evaluation may spend: steps (a literal, an iteration, a call) and time. A rule set
 * that explodes stops with a RegoEvalError instead of holding the request.
 */
export class EvalBudget implements BuiltinContext {
  private steps = 0;
  private readonly deadline: number;
  private readonly patterns = new Map<string, TenantPattern>();

  constructor(private readonly limits: EvalLimits = DEFAULT_LIMITS) {
    this.deadline = Date.now() + limits.maxMillis;
  }

  charge(steps: number): void {
    this.steps += steps;
    if (this.steps > this.limits.maxSteps)
      throw new RegoEvalError('limit', `evaluation stopped after ${this.limits.maxSteps} steps`);
    // The clock is read every 256 steps: cheap, and still within a millisecond of the limit.
    if ((this.steps & 255) < steps && Date.now() > this.deadline)
      throw new RegoEvalError('limit', `evaluation stopped after ${this.limits.maxMillis} ms`);
  }

  /** tenant patterns run on RE2 (lib/patterns), compiled once per evaluation */
  pattern(source: string): TenantPattern {
    let compiled = this.patterns.get(source);
    if (!compiled) {
      compiled = compileTenantPattern(source);
      this.patterns.set(source, compiled);
    }
    return compiled;
  }
}

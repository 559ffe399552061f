import type { Caller } from '../../../../contracts/users/actions';
import { HttpProblem } from '../../../../lib/http/problem';
import type { Admission } from '../../../../lib/http/surface';
import { PolicyProgram, RegoError, RegoEvalError, type EvalLimits } from '../../../../lib/rego/policy';
import type { OrgPolicyCache } from './policy-cache';
import { inputForLog, policyInput, type PolicyInput } from './policy-input';
import type { RoutePermission } from './route-permissions';

export interface GateOptions {
  /** log every decision of every organisation (GW_OPEN_POLICY_DEBUG) */
  debug: boolean;
  limits?: EvalLimits;
}

interface Logger {
  info(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

/**
 * Checks every dashboard REST request of a user against their organisation's policy rules
 * (when it enabled them), after the route's own permission check and before its handler: a
 * `deny` message refuses it with 403. Rules that fail to evaluate refuse it too (500), except
 * that an administrator can still reach the organisation settings to replace them.
 */
export class OpenPolicyGate {
  constructor(
    private readonly cache: OrgPolicyCache,
    private readonly permissions: RoutePermission[],
    private readonly options: GateOptions,
    private readonly logger: Logger,
  ) {}

  async admit(caller: Caller, admission: Admission<Caller>): Promise<void> {
    const policy = await this.cache.get(caller.org_id);
    const rules = newRules(admission);
    if (!policy.enabled && rules === undefined) return;
    const input = policyInput(caller, admission, policy.org, this.permissions);
    if (policy.enabled) {
      if (!policy.program) this.broken(caller, admission, `the stored rules do not compile (${policy.compileError})`);
      else this.decide(policy.program, input, policy.debug || this.options.debug, caller, admission);
    }
    if (rules !== undefined) this.trialOf(rules, input);
  }

  private decide(
    program: PolicyProgram,
    input: PolicyInput,
    debug: boolean,
    caller: Caller,
    admission: Admission<Caller>,
  ): void {
    const started = performance.now();
    let denials: string[];
    try {
      denials = program.denials(input, this.options.limits);
    } catch (err) {
      if (!(err instanceof RegoEvalError)) throw err;
      this.broken(caller, admission, err.message);
      return;
    }
    if (debug) {
      // One line of JSON per decision, so that it can be searched and replayed against the rules.
      const millis = Math.round((performance.now() - started) * 100) / 100;
      const decision = denials.length > 0 ? 'deny' : 'allow';
      const details = {
        org_id: caller.org_id,
        user_id: caller.user_id,
        decision,
        messages: denials,
        millis,
        input: inputForLog(input),
      };
      this.logger.info(`policy rules: ${decision} ${admission.method} ${admission.path} ${JSON.stringify(details)}`);
    }
    if (denials.length > 0) throw new HttpProblem(403, denials.join('; '));
  }

  private broken(caller: Caller, admission: Admission<Caller>, reason: string): void {
    this.logger.error(
      `policy rules of organisation ${caller.org_id} failed on ${admission.method} ${admission.path}: ${reason}`,
    );
    if (caller.is_admin && isOrgSettings(admission)) return;
    throw new HttpProblem(500, `The organisation's policy rules could not be evaluated: ${reason}`);
  }

  /**
   * New rules are run once on the request that saves them, so a rule set that explodes or
   * conflicts is refused now rather than on every later request, and enabled rules that deny
   * their own saving are refused: no administrator could replace them afterwards. (Whether they
   * parse and stay in the subset is the orgs service's check, with the construct and line.)
   */
  private trialOf(update: { rules: string; enabled: boolean }, input: PolicyInput): void {
    let program: PolicyProgram;
    try {
      program = PolicyProgram.compile(update.rules);
    } catch (err) {
      if (err instanceof RegoError) return;
      throw err;
    }
    let denials: string[];
    try {
      denials = program.denials(input, this.options.limits);
    } catch (err) {
      if (!(err instanceof RegoEvalError)) throw err;
      throw new HttpProblem(400, `Invalid policy rules: evaluating them for this request failed: ${err.message}`);
    }
    if (update.enabled && denials.length > 0) {
      throw new HttpProblem(
        400,
        `Invalid policy rules: they deny the request that saves them (${denials.join('; ')}), so nobody could change them afterwards`,
      );
    }
  }
}

function isOrgSettings(admission: Admission<Caller>): boolean {
  return admission.route.path.startsWith('/org/');
}

/** The rules a PUT of the organisation settings would store, if it is one. */
function newRules(admission: Admission<Caller>): { rules: string; enabled: boolean } | undefined {
  if (admission.method !== 'PUT' || !isOrgSettings(admission)) return undefined;
  const policy = (admission.body() as { open_policy?: { rules?: unknown; enabled?: unknown } } | null)?.open_policy;
  return typeof policy?.rules === 'string' ? { rules: policy.rules, enabled: policy.enabled === true } : undefined;
}

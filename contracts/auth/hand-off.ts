import type { AuthCheckParams, AuthCheckResult } from './actions';

/**
 * `auth.check` in process, for the gateway of the same node, which checks a credential on every
 * request. The same answer as the action, without a Moleculer context, timer and promise chain
 * per call: a cached session is answered synchronously. Over the bus (another node runs auth)
 * the action is called as usual.
 */
export interface AuthHandOff {
  check(params: AuthCheckParams): AuthCheckResult | Promise<AuthCheckResult>;
}

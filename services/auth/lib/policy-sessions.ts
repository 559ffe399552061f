import { hash } from 'node:crypto';
import type { AuthCheckParams, AuthCheckResult } from '../../../contracts/auth/actions';
import type { KeysPolicySessionResult } from '../../../contracts/keys/actions';
import type { Session } from '../../../contracts/keys/session';
import { BoundedCache } from '../../../lib/cache/bounded-cache';

type PolicySessionLookup = (orgId: string, policyIds: string[]) => Promise<KeysPolicySessionResult | null>;
type PoliciesParams = Extract<AuthCheckParams, { kind: 'policies' }>;

/** How long a derived session is reused without `policies.changed` saying it changed. */
const SESSION_TTL_MS = 60_000;
/** Sessions kept at most: one per identity and set of policies seen recently. */
const MAX_SESSIONS = 50_000;

/**
 * The sessions of clients the gateway knows by a token it verified (JWT, OpenID Connect): no key
 * is stored for them, so their session is what their policies give, built by the key store once
 * per identity and set of policies and then served from memory (no write, and no store read, per
 * request). Dropped on `policies.changed`. Concurrent first requests of one identity share one
 * call to the store, and an answer that was in flight when policies changed is not cached.
 */
export class PolicySessions {
  private readonly sessions: BoundedCache<string, AuthCheckResult>;
  private readonly inFlight = new Map<string, Promise<AuthCheckResult>>();
  /**
   * The cache key of each params object seen: the gateway of this node hands the same object (a
   * verified token's check) on every request of that token, and building the key (copying,
   * sorting and joining the policy ids) cost more than the rest of a cached answer. Params are
   * never changed once made; over the bus each call brings a new object, built once as before.
   */
  private readonly cacheKeys = new WeakMap<PoliciesParams, string>();
  private generation = 0;

  constructor(
    private readonly lookup: PolicySessionLookup,
    now: () => number = Date.now,
    maxSessions = MAX_SESSIONS,
  ) {
    this.sessions = new BoundedCache(maxSessions, now);
  }

  session(params: PoliciesParams): AuthCheckResult | Promise<AuthCheckResult> {
    const cacheKey = this.cacheKeyOf(params);
    const cached = this.sessions.get(cacheKey);
    if (cached) return cached;
    const shared = this.inFlight.get(cacheKey);
    if (shared) return shared;
    const generation = this.generation;
    const pending = this.derive(params).finally(() => {
      if (this.inFlight.get(cacheKey) === pending) this.inFlight.delete(cacheKey);
    });
    this.inFlight.set(cacheKey, pending);
    return pending.then((result) => {
      if (generation === this.generation) this.sessions.set(cacheKey, result, SESSION_TTL_MS);
      return result;
    });
  }

  forgetAll(): void {
    this.generation++;
    this.sessions.clear();
    this.inFlight.clear();
  }

  private cacheKeyOf(params: PoliciesParams): string {
    let cacheKey = this.cacheKeys.get(params);
    if (cacheKey === undefined) {
      cacheKey = `${params.org_id}\u0000${params.key_id}\u0000${params.client_id ?? ''}\u0000${[...params.policy_ids].sort().join('\u0000')}`;
      this.cacheKeys.set(params, cacheKey);
    }
    return cacheKey;
  }

  private async derive(params: PoliciesParams): Promise<AuthCheckResult> {
    const found = await this.lookup(params.org_id, params.policy_ids);
    if (!found) return NO_POLICY;
    const session: Session = { ...found.session, alias: params.alias };
    if (params.client_id) session.oauth_client_id = params.client_id;
    return { ok: true, key_hash: sessionKeyHash(params.key_id), session };
  }
}

const NO_POLICY: AuthCheckResult = Object.freeze({ ok: false, reason: 'no_policy' });

/** The name a derived session's limits and quota are counted under, as a stored key's hash would be. */
function sessionKeyHash(keyId: string): string {
  return hash('sha256', keyId, 'hex');
}

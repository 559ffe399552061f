import type { Session } from '../keys/session';

/** `auth.check`: is this credential a known key (or basic-auth user), and what is its session? */
export type AuthCheckParams =
  | { kind: 'token'; key: string }
  /** dynamic mutual TLS: the key bound to the client certificate `cert_id` (organisation id + SHA-256) */
  | { kind: 'certificate'; org_id: string; cert_id: string }
  /**
   * a client the gateway verified itself (a JWT or OpenID Connect token): the session its policies
   * give, named `key_id` (derived from the token's identity, so every node counts its limits under
   * one name)
   */
  | { kind: 'policies'; org_id: string; key_id: string; policy_ids: string[]; alias: string; client_id?: string }
  | {
      kind: 'basic';
      org_id: string;
      username: string;
      password: string;
      /** seconds a verified username and password stay verified (basic_auth.cache_ttl) */
      cache_ttl: number;
      /** verify the password on every request (basic_auth.disable_caching) */
      disable_caching: boolean;
    };

export const authActionParams = {
  check: {
    kind: { type: 'enum', values: ['token', 'basic', 'certificate', 'policies'] },
    key_id: { type: 'string', optional: true },
    policy_ids: { type: 'array', items: 'string', optional: true },
    alias: { type: 'string', optional: true },
    client_id: { type: 'string', optional: true },
    cert_id: { type: 'string', optional: true },
    key: { type: 'string', optional: true },
    org_id: { type: 'string', optional: true },
    username: { type: 'string', optional: true },
    password: { type: 'string', optional: true },
    cache_ttl: { type: 'number', optional: true },
    disable_caching: { type: 'boolean', optional: true },
  },
};

/** Refusals are results, not errors: they are the common case under attack and must be cheap. */
export type AuthCheckResult =
  | { ok: true; key_hash: string; session: Session }
  /** `no_policy`: a verified token whose policies do not exist in the API's organisation */
  | { ok: false; reason: 'unknown' | 'wrong_password' | 'no_policy' };

/** The `auth.*` actions: params and result of each (see contracts/actions.ts). */
export interface AuthActions {
  'auth.check': { params: AuthCheckParams; result: AuthCheckResult };
}

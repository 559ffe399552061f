import type { Context, ServiceSchema } from 'moleculer';
import { authActionParams, type AuthCheckParams, type AuthCheckResult } from '../../contracts/auth/actions';
import type { KeysLookupResult } from '../../contracts/keys/actions';
import { KEYS_CHANGED, POLICIES_CHANGED, type KeysChangedEvent } from '../../contracts/keys/events';
import { Authenticator } from './lib/authenticator';

/**
 * Credential checks for the gateway, with the session cache in memory. It reads keys through
 * `keys.lookup` (never the database) and drops cached sessions on `keys.changed` and
 * `policies.changed`, so a deleted or changed key stops working on every node at once.
 */
export function authService(): ServiceSchema {
  let authenticator: Authenticator;
  return {
    name: 'auth',
    actions: {
      check: {
        params: authActionParams.check,
        handler(ctx: Context<AuthCheckParams>): Promise<AuthCheckResult> {
          const params = ctx.params;
          if (params.kind === 'token') return authenticator.token(params.key);
          return authenticator.basic(params.org_id, params.username, params.password, { cacheTtlSeconds: params.cache_ttl, disableCaching: params.disable_caching });
        },
      },
    },
    events: {
      [KEYS_CHANGED]: {
        handler(ctx: Context<KeysChangedEvent>) {
          authenticator.forget(ctx.params.key_hash);
        },
      },
      [POLICIES_CHANGED]: {
        handler() {
          authenticator.forgetAll();
        },
      },
    },
    created() {
      authenticator = new Authenticator((keyHash) => this.broker.call<KeysLookupResult | null, object>('keys.lookup', { key_hash: keyHash }));
    },
  };
}

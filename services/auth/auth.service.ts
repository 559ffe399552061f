import type { Context, ServiceBroker, ServiceSchema } from 'moleculer';
import { authActionParams, type AuthCheckParams, type AuthCheckResult } from '../../contracts/auth/actions';
import {
  KEYS_CHANGED,
  KEYS_REVISION,
  POLICIES_CHANGED,
  type KeysChangedEvent,
  type KeysRevisionEvent,
  type PoliciesChangedEvent,
} from '../../contracts/keys/events';
import type { ServiceActions } from '../../lib/bus/actions';
import { callAction } from '../../lib/bus/call';
import type { Runtime } from '../../lib/runtime';
import { Authenticator } from './lib/authenticator';
import { KeyFreshness } from './lib/key-freshness';
import { PolicySessions } from './lib/policy-sessions';

/**
 * Credential checks for the gateway, with a bounded session cache in memory. It reads keys
 * through `keys.lookup` (never the database), and the sessions of verified tokens (JWT, OpenID
 * Connect) through `keys.policySession`, and drops cached sessions on `keys.changed` and
 * `policies.changed`, so a deleted or changed key stops working on every node at once; a gap in
 * their revisions, a store node (re)appearing, or the periodic check finding another revision
 * drops every cached session (lib/key-freshness.ts).
 */
export function authService(runtime: Runtime): ServiceSchema {
  let authenticator: Authenticator;
  let policySessions: PolicySessions;
  let freshness: KeyFreshness;
  let checkTimer: NodeJS.Timeout | undefined;
  /** `auth.check`, for the action and for the gateway of this node (its hand-off) */
  const check = (params: AuthCheckParams): AuthCheckResult | Promise<AuthCheckResult> => {
    if (params.kind === 'token') return authenticator.token(params.key);
    if (params.kind === 'certificate') return authenticator.certificate(params.org_id, params.cert_id);
    if (params.kind === 'policies') return policySessions.session(params);
    return authenticator.basic(params.org_id, params.username, params.password, {
      cacheTtlSeconds: params.cache_ttl,
      disableCaching: params.disable_caching,
    });
  };
  return {
    name: 'auth',
    actions: {
      check: {
        params: authActionParams.check,
        async handler(ctx: Context<AuthCheckParams>): Promise<AuthCheckResult> {
          return check(ctx.params);
        },
      },
    } satisfies ServiceActions<'auth'>,
    events: {
      [KEYS_CHANGED]: {
        handler(ctx: Context<KeysChangedEvent>) {
          authenticator.forget(ctx.params.key_hash);
          freshness.followed(ctx.params.revision);
        },
      },
      [POLICIES_CHANGED]: {
        handler(ctx: Context<PoliciesChangedEvent>) {
          authenticator.forgetAll();
          policySessions.forgetAll();
          freshness.followed(ctx.params.revision);
        },
      },
      [KEYS_REVISION]: {
        handler(ctx: Context<KeysRevisionEvent>) {
          if (typeof ctx.params?.revision === 'number') freshness.announced(ctx.params.revision);
        },
      },
      '$services.changed': {
        handler() {
          if (keyStoreReachable(this.broker)) void freshness.check();
        },
      },
    },
    created() {
      authenticator = new Authenticator((keyHash) => callAction(this.broker, 'keys.lookup', { key_hash: keyHash }));
      policySessions = new PolicySessions((orgId, policyIds) =>
        callAction(this.broker, 'keys.policySession', { org_id: orgId, policy_ids: policyIds }),
      );
      freshness = new KeyFreshness(
        () => {
          authenticator.forgetAll();
          policySessions.forgetAll();
        },
        async () => (await callAction(this.broker, 'keys.currentRevision')).revision,
        this.logger,
      );
    },
    started() {
      runtime.handOffs.provide('auth', { check });
      // A backstop for a node that missed broadcasts and saw no event at all (e.g. it was paused).
      checkTimer = setInterval(() => {
        if (keyStoreReachable(this.broker)) void freshness.check();
      }, runtime.config.storeCheckInterval * 1000);
      checkTimer.unref();
    },
    stopped() {
      runtime.handOffs.withdraw('auth');
      clearInterval(checkTimer);
    },
  };
}

function keyStoreReachable(broker: ServiceBroker): boolean {
  return (broker.registry as unknown as { hasService(name: string): boolean }).hasService('keys');
}

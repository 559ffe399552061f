import type { Context, ServiceSchema } from 'moleculer';
import {
  keysActionParams,
  policiesActionParams,
  type KeysApiUsageParams,
  type KeysCreateParams,
  type KeysGetParams,
  type KeysReadParams,
  type KeysListParams,
  type KeysPolicySessionParams,
  type KeysPreviewParams,
  type KeysSetPoliciesParams,
  type KeysSaveBasicUserParams,
  type KeysUpdateParams,
  type KeysUpdateMetaParams,
  type PoliciesCreateParams,
  type PoliciesGetParams,
  type PoliciesUpdateParams,
} from '../../contracts/keys/actions';
import { KEYS_CHANGED, KEYS_REVISION, POLICIES_CHANGED, type KeysRevisionEvent } from '../../contracts/keys/events';
import { orgQuotaCounter, quotaCounter } from '../../contracts/limiter/actions';
import {
  ORG_SESSIONS_CHANGED,
  ORG_SESSIONS_REVISION,
  orgSessionsActionParams,
  type OrgSessionsGetParams,
  type OrgSessionsListParams,
  type OrgSessionsSaveParams,
} from '../../contracts/keys/org-sessions';
import { ORGS_DELETED, orgsDeletedEventParams, type OrgsDeletedEvent } from '../../contracts/orgs/events';
import type { ServiceActions } from '../../lib/bus/actions';
import { callAction } from '../../lib/bus/call';
import { isGwError } from '../../lib/errors';
import type { Runtime } from '../../lib/runtime';
import { migrate } from '../../lib/store/migrate';
import { HmacSecrets } from './lib/hmac-secret';
import { KeyRegistry } from './lib/key-registry';
import { SecretBox } from '../../lib/secret-box';
import { KeyStore } from './lib/key-store';
import { certificatePublicKey } from '../../lib/certificate-public-key';
import { KEYS_MIGRATIONS } from './lib/migrations';
import { PolicyRegistry } from './lib/policy-registry';
import { OrgSessionRegistry } from './lib/org-session-registry';
import { OrgSessionStore } from './lib/org-session-store';

/**
 * Access keys, basic-auth users, policies and organisation sessions; `keys.changed`,
 * `policies.changed` and `keys.orgSessions.changed` after each write. Organisation sessions live
 * here because they are session objects (the reference keeps them in its key store), and the
 * gateway nodes already follow this service's broadcasts.
 */
export function keysService(runtime: Runtime): ServiceSchema {
  const { config } = runtime;
  let registry: KeyRegistry;
  let policies: PolicyRegistry;
  let orgSessions: OrgSessionRegistry;
  const limiterReachable = (broker: { registry: unknown }) =>
    (broker.registry as { hasService(name: string): boolean }).hasService('limiter');
  return {
    name: 'keys',
    actions: {
      create: {
        params: keysActionParams.create,
        handler: (ctx: Context<KeysCreateParams>) => registry.create(ctx.params),
      },
      saveBasicUser: {
        params: keysActionParams.saveBasicUser,
        handler: (ctx: Context<KeysSaveBasicUserParams>) => registry.saveBasicUser(ctx.params),
      },
      get: { params: keysActionParams.get, handler: (ctx: Context<KeysReadParams>) => registry.get(ctx.params) },
      update: {
        params: keysActionParams.update,
        handler: (ctx: Context<KeysUpdateParams>) => registry.update(ctx.params),
      },
      remove: {
        params: keysActionParams.remove,
        handler: (ctx: Context<KeysGetParams>) => registry.remove(ctx.params),
      },
      list: { params: keysActionParams.list, handler: (ctx: Context<KeysListParams>) => registry.list(ctx.params) },
      preview: {
        params: keysActionParams.preview,
        handler: (ctx: Context<KeysPreviewParams>) => registry.preview(ctx.params),
      },
      setPolicies: {
        params: keysActionParams.setPolicies,
        handler: (ctx: Context<KeysSetPoliciesParams>) => registry.setPolicies(ctx.params),
      },
      updateMeta: {
        params: keysActionParams.updateMeta,
        handler: (ctx: Context<KeysUpdateMetaParams>) => registry.updateMeta(ctx.params),
      },
      lookup: {
        params: keysActionParams.lookup,
        handler: (ctx: Context<{ key_hash: string }>) => registry.lookup(ctx.params.key_hash),
      },
      policySession: {
        params: keysActionParams.policySession,
        handler: (ctx: Context<KeysPolicySessionParams>) =>
          registry.policySession(ctx.params.org_id, ctx.params.policy_ids),
      },
      apiUsage: {
        params: keysActionParams.apiUsage,
        handler: (ctx: Context<KeysApiUsageParams>) => registry.apiUsage(ctx.params.api_id),
      },
      currentRevision: { params: keysActionParams.currentRevision, handler: () => registry.currentRevision() },
      'policies.create': {
        params: policiesActionParams.create,
        handler: (ctx: Context<PoliciesCreateParams>) => policies.create(ctx.params.policy, ctx.params.org_scope),
      },
      'policies.get': {
        params: policiesActionParams.get,
        handler: (ctx: Context<PoliciesGetParams>) => policies.get(ctx.params.id, ctx.params.org_scope),
      },
      'policies.update': {
        params: policiesActionParams.update,
        handler: (ctx: Context<PoliciesUpdateParams>) =>
          policies.update(ctx.params.id, ctx.params.policy, ctx.params.org_scope),
      },
      'policies.remove': {
        params: policiesActionParams.remove,
        handler: async (ctx: Context<PoliciesGetParams>) => {
          await policies.remove(ctx.params.id, ctx.params.org_scope);
          return { id: ctx.params.id };
        },
      },
      'policies.list': {
        params: policiesActionParams.list,
        handler: (ctx: Context<{ org_scope?: string; page?: number }>) =>
          policies.list(ctx.params.org_scope, ctx.params.page ?? 1),
      },
      'orgSessions.get': {
        params: orgSessionsActionParams.get,
        handler: (ctx: Context<OrgSessionsGetParams>) => orgSessions.get(ctx.params.org_id),
      },
      'orgSessions.save': {
        params: orgSessionsActionParams.save,
        handler: (ctx: Context<OrgSessionsSaveParams>) => orgSessions.save(ctx.params),
      },
      'orgSessions.remove': {
        params: orgSessionsActionParams.remove,
        handler: (ctx: Context<OrgSessionsGetParams>) => orgSessions.remove(ctx.params.org_id),
      },
      'orgSessions.list': {
        params: orgSessionsActionParams.list,
        handler: (ctx: Context<OrgSessionsListParams>) => orgSessions.list(ctx.params.filter),
      },
      'orgSessions.snapshot': { params: orgSessionsActionParams.snapshot, handler: () => orgSessions.snapshot() },
      'orgSessions.currentRevision': {
        params: orgSessionsActionParams.currentRevision,
        handler: () => orgSessions.currentRevision(),
      },
    } satisfies ServiceActions<'keys'>,
    events: {
      // A node joined or came back: it may hold sessions of keys changed while it was unreachable.
      '$services.changed': {
        async handler(ctx: Context<{ localService: boolean }>) {
          if (ctx.params.localService || !registry) return;
          try {
            const announcement: KeysRevisionEvent = await registry.currentRevision();
            await this.broker.broadcast(KEYS_REVISION, announcement);
            await this.broker.broadcast(ORG_SESSIONS_REVISION, await orgSessions.currentRevision());
          } catch (err) {
            this.logger.warn(`could not announce the key revision: ${(err as Error).message}`);
          }
        },
      },
      [ORGS_DELETED]: {
        params: orgsDeletedEventParams,
        async handler(ctx: Context<OrgsDeletedEvent>) {
          const keys = await registry.removeOrganisation(ctx.params.org_id);
          const removedPolicies = await policies.removeOrganisation(ctx.params.org_id);
          await orgSessions.removeOrganisation(ctx.params.org_id);
          this.logger.info(
            `organisation ${ctx.params.org_id} deleted: removed its ${keys} keys and ${removedPolicies} policies`,
          );
        },
      },
    },
    async started() {
      const db = runtime.database();
      await migrate(db, 'keys', KEYS_MIGRATIONS);
      const findApi = (apiId: string, orgScope: string | undefined) =>
        callAction(this.broker, 'apis.get', { id: apiId, org_scope: orgScope }).then(
          (record) =>
            record.api_definition.api_id === apiId
              ? { api_id: apiId, name: record.api_definition.name, org_id: record.api_definition.org_id ?? '' }
              : undefined,
          (err: unknown) => (isGwError(err, 'GW_ERR_APIS_NOT_FOUND') ? undefined : Promise.reject(err)),
        );
      policies = new PolicyRegistry(
        db,
        config.pageSize,
        (event) => void this.broker.broadcast(POLICIES_CHANGED, event),
        findApi,
      );
      orgSessions = new OrgSessionRegistry(new OrgSessionStore(db), {
        publish: (event) => void this.broker.broadcast(ORG_SESSIONS_CHANGED, event),
        quotaState: async (record, max, renewalRate) => {
          if (!limiterReachable(this.broker)) return undefined;
          return callAction(this.broker, 'limiter.quotaState', {
            counter: orgQuotaCounter(record.org_id, record.quota_epoch),
            max,
            renewal_rate: renewalRate,
          });
        },
      });
      registry = new KeyRegistry(new KeyStore(db), policies, {
        hashKeys: config.hashKeys,
        listHashes: config.enableHashedKeysListing,
        pageSize: config.pageSize,
        findApi,
        hmacSecrets: new HmacSecrets(new SecretBox(config.secret, 'keys.hmac_string')),
        certificateExists: (id, orgId) =>
          callAction(this.broker, 'certs.get', { id, org_scope: orgId }).then(
            () => true,
            (err: unknown) => (isGwError(err, 'GW_ERR_CERTS_NOT_FOUND') ? false : Promise.reject(err)),
          ),
        certificatePublicKeyType: (id, orgId) =>
          callAction(this.broker, 'certs.material', { ids: [id], org_id: orgId, public_only: true }).then(([found]) =>
            found ? (certificatePublicKey(found.cert_pem)?.asymmetricKeyType ?? 'an unreadable key') : undefined,
          ),
        publish: (event) => void this.broker.broadcast(KEYS_CHANGED, event),
        quotaState: async (keyHash, max, renewalRate) => {
          if (!limiterReachable(this.broker)) return undefined;
          return callAction(this.broker, 'limiter.quotaState', {
            counter: quotaCounter(keyHash),
            max,
            renewal_rate: renewalRate,
          });
        },
      });
    },
  };
}

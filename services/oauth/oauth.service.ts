import type { Context, ServiceSchema } from 'moleculer';
import { oauthActionParams } from '../../contracts/oauth/actions';
import { ORGS_DELETED, orgsDeletedEventParams, type OrgsDeletedEvent } from '../../contracts/orgs/events';
import type { ServiceActions } from '../../lib/bus/actions';
import { callAction } from '../../lib/bus/call';
import { isGwError } from '../../lib/errors';
import { verifyPassword } from '../../lib/password';
import type { Runtime } from '../../lib/runtime';
import { migrate } from '../../lib/store/migrate';
import { oauthSettingsOf } from './lib/api-settings';
import { ClientMaintenance } from './lib/client-maintenance';
import { ClientRegistry } from './lib/client-registry';
import type { OAuthDeps } from './lib/deps';
import { Grants } from './lib/grants';
import { KeyChangeNotifier, type NotifierOptions } from './lib/keychange-notifier';
import { OAUTH_MIGRATIONS } from './lib/migrations';
import { OAuthStore } from './lib/oauth-store';
import { hashSecret } from './lib/secrets';
import { OAuthErrors } from './errors';

/** OAuth 2.0 clients, authorisation codes and tokens (the authorisation server of OAuth APIs). */
export function oauthService(runtime: Runtime, notifierOptions: Partial<NotifierOptions> = {}): ServiceSchema {
  const { config } = runtime;
  let clients: ClientRegistry;
  let grants: Grants;
  let maintenance: ClientMaintenance;
  let store: OAuthStore;
  let notifier: KeyChangeNotifier;
  return {
    name: 'oauth',
    actions: {
      createClient: { params: oauthActionParams.createClient, handler: (ctx) => clients.create(ctx.params) },
      listClients: { params: oauthActionParams.listClients, handler: (ctx) => clients.list(ctx.params) },
      getClient: { params: oauthActionParams.client, handler: (ctx) => clients.get(ctx.params) },
      removeClient: { params: oauthActionParams.client, handler: (ctx) => clients.remove(ctx.params) },
      listTokens: { params: oauthActionParams.client, handler: (ctx) => clients.tokens(ctx.params) },
      listTokensPage: {
        params: oauthActionParams.listTokensPage,
        handler: (ctx) => maintenance.tokensPage(ctx.params),
      },
      updateClient: { params: oauthActionParams.updateClient, handler: (ctx) => maintenance.update(ctx.params) },
      rotateSecret: { params: oauthActionParams.client, handler: (ctx) => maintenance.rotateSecret(ctx.params) },
      clientApis: { params: oauthActionParams.clientApis, handler: (ctx) => maintenance.clientApis(ctx.params) },
      removeRefresh: {
        params: oauthActionParams.removeRefresh,
        handler: (ctx) => maintenance.removeRefresh(ctx.params),
      },
      purgeLapsed: { params: oauthActionParams.purgeLapsed, handler: () => maintenance.purgeLapsed() },
      revoke: { params: oauthActionParams.revoke, handler: (ctx) => clients.revoke(ctx.params) },
      revokeAll: { params: oauthActionParams.revokeAll, handler: (ctx) => clients.revokeAll(ctx.params) },
      authorizeClient: {
        params: oauthActionParams.authorizeClient,
        handler: (ctx) => grants.authorizeClient(ctx.params),
      },
      checkAuthorize: { params: oauthActionParams.checkAuthorize, handler: (ctx) => grants.checkAuthorize(ctx.params) },
      token: { params: oauthActionParams.token, handler: (ctx) => grants.token(ctx.params) },
    } satisfies ServiceActions<'oauth'>,
    events: {
      [ORGS_DELETED]: {
        params: orgsDeletedEventParams,
        handler(ctx: Context<OrgsDeletedEvent>) {
          return store.removeOrganisation(ctx.params.org_id);
        },
      },
    },
    async started() {
      const db = runtime.database();
      await migrate(db, 'oauth', OAUTH_MIGRATIONS);
      store = new OAuthStore(db);
      notifier = new KeyChangeNotifier(this.logger, notifierOptions);
      const deps: OAuthDeps = {
        store,
        findApi: (apiId, orgScope) =>
          callAction(this.broker, 'apis.get', { id: apiId, org_scope: orgScope }).then(
            (record) => {
              const settings = oauthSettingsOf(record.api_definition);
              if (!settings) throw OAuthErrors.apiNotOAuth(record.api_definition.api_id);
              return settings;
            },
            (err: unknown) => (isGwError(err, 'GW_ERR_APIS_NOT_FOUND') ? undefined : Promise.reject(err)),
          ),
        policyExists: (policyId, orgId) =>
          callAction(this.broker, 'keys.policies.get', { id: policyId, org_scope: orgId }).then(
            () => true,
            (err: unknown) => (isGwError(err, 'GW_ERR_POLICIES_NOT_FOUND') ? false : Promise.reject(err)),
          ),
        policyApis: (policyId, orgId) =>
          callAction(this.broker, 'keys.policies.get', { id: policyId, org_scope: orgId }).then(
            (policy) => Object.keys(policy.access_rights ?? {}),
            (err: unknown) => (isGwError(err, 'GW_ERR_POLICIES_NOT_FOUND') ? undefined : Promise.reject(err)),
          ),
        createKey: async (session, orgId) => {
          const created = await callAction(this.broker, 'keys.create', { session, org_scope: orgId });
          return { key_id: created.key_id, key_hash: created.key_hash };
        },
        removeKey: async (keyHash) => {
          await callAction(this.broker, 'keys.remove', { key: keyHash }).catch((err: unknown) =>
            isGwError(err, 'GW_ERR_KEYS_NOT_FOUND') ? undefined : Promise.reject(err),
          );
        },
        // Basic-auth users are keys named by organisation and username (as the keys service stores them).
        basicUser: (orgId, username) =>
          callAction(this.broker, 'keys.lookup', { key_hash: hashSecret(`${orgId}${username}`) }),
        verifyPassword,
        notify: (api, notification) => {
          const url = api.notifications?.oauth_on_keychange_url;
          if (typeof url === 'string' && url !== '')
            notifier.send(url, String(api.notifications?.shared_secret ?? ''), notification);
        },
        settings: {
          tokenExpire: config.oauthTokenExpire,
          refreshTokenExpire: config.oauthRefreshTokenExpire,
          authCodeExpire: config.oauthAuthCodeExpire,
          expiredRetainPeriod: config.oauthTokenExpiredRetainPeriod,
          hashKeys: config.hashKeys,
          pageSize: config.pageSize,
        },
      };
      clients = new ClientRegistry(deps);
      grants = new Grants(deps, clients);
      maintenance = new ClientMaintenance(deps, clients);
    },
    stopped() {
      notifier?.stop();
    },
  };
}

import type { OAuthCreateClientParams } from '../../../contracts/oauth/actions';
import { HttpProblem } from '../../../lib/http/problem';
import type { Route } from '../../../lib/http/surface';

type Admin = 'gateway-admin';

/**
 * OAuth clients on the gateway management API, as the reference gateway's `/tyk/oauth/…`:
 * `POST /gw/oauth/clients/create` (`{api_id, redirect_uri, policy_id?, client_id?, secret?,
 * description?, meta_data?}`), list, get, delete, token listing, and
 * `POST /gw/oauth/authorize-client/` (form-encoded; the client names the API).
 */
export const gatewayOAuthRoutes: Array<Route<Admin>> = [
  {
    method: 'post',
    path: '/oauth/clients/create',
    handle: async ({ body, call }) => {
      const { org_scope: _ignored, ...params } = body<OAuthCreateClientParams>();
      return { body: await call('oauth.createClient', params) };
    },
  },
  {
    method: 'get',
    path: '/oauth/clients/:apiId',
    handle: async ({ params, call }) => ({
      body: (await call('oauth.listClients', { api_id: params.apiId, page: 0 })).apps,
    }),
  },
  {
    method: 'get',
    path: '/oauth/clients/:apiId/:clientId',
    handle: async ({ params, call }) => ({
      body: await call('oauth.getClient', { api_id: params.apiId, client_id: params.clientId }),
    }),
  },
  {
    method: 'delete',
    path: '/oauth/clients/:apiId/:clientId',
    handle: async ({ params, call }) => {
      await call('oauth.removeClient', { api_id: params.apiId, client_id: params.clientId });
      return { body: { key: params.clientId, status: 'ok', action: 'deleted' } };
    },
  },
  {
    method: 'get',
    path: '/oauth/clients/:apiId/:clientId/tokens',
    handle: async ({ params, call }) => ({
      body: await call('oauth.listTokens', { api_id: params.apiId, client_id: params.clientId }),
    }),
  },
  {
    method: 'post',
    path: '/oauth/authorize-client',
    handle: async ({ fields, call }) => {
      const form = fields();
      if (!form.client_id) throw new HttpProblem(400, 'client_id is required');
      return {
        body: await call('oauth.authorizeClient', {
          response_type: form.response_type ?? '',
          client_id: form.client_id,
          redirect_uri: form.redirect_uri ?? '',
          key_rules: form.key_rules,
          code_challenge: form.code_challenge,
          code_challenge_method: form.code_challenge_method,
        }),
      };
    },
  },
];

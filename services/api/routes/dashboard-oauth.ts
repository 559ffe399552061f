import type { Caller } from '../../../contracts/users/actions';
import { ok } from '../../../lib/http/envelope';
import { HttpProblem } from '../../../lib/http/problem';
import type { Route } from '../../../lib/http/surface';
import { pageFromQuery } from '../lib/page-param';

const read = { name: 'apis', level: 'read' } as const;
const write = { name: 'apis', level: 'write' } as const;

/**
 * OAuth 2.0 clients and tokens on the dashboard REST API (docs/authentication.md#oauth-20),
 * scoped to the caller's organisation. `{api-id}` is the API's internal or public id, except
 * for authorize-client, which takes the public `api_id` as the reference dashboard does.
 */
export const dashboardOAuthRoutes: Array<Route<Caller>> = [
  {
    method: 'post',
    path: '/apis/oauth/:apiId',
    permission: write,
    handle: async ({ caller, params, body, call }) => {
      const { redirect_uri, policy_id, description, meta_data } = body<{
        redirect_uri: string;
        policy_id?: string;
        description?: string;
        meta_data?: Record<string, unknown>;
      }>();
      const created = await call('oauth.createClient', {
        api_id: params.apiId,
        redirect_uri,
        policy_id,
        description,
        meta_data,
        org_scope: caller.org_id,
      });
      return {
        body: {
          client_id: created.client_id,
          secret: created.secret,
          redirect_uri: created.redirect_uri,
          policy_id: created.policy_id,
        },
      };
    },
  },
  {
    method: 'get',
    path: '/apis/oauth/:apiId',
    permission: read,
    handle: async ({ caller, params, query, call }) => ({
      body: await call('oauth.listClients', {
        api_id: params.apiId,
        org_scope: caller.org_id,
        page: pageFromQuery(query),
      }),
    }),
  },
  {
    method: 'get',
    path: '/apis/oauth/:apiId/:clientId',
    permission: read,
    handle: async ({ caller, params, call }) => ({
      body: await call('oauth.getClient', {
        api_id: params.apiId,
        client_id: params.clientId,
        org_scope: caller.org_id,
      }),
    }),
  },
  {
    method: 'delete',
    path: '/apis/oauth/:apiId/:clientId',
    permission: write,
    handle: async ({ caller, params, call }) => {
      await call('oauth.removeClient', { api_id: params.apiId, client_id: params.clientId, org_scope: caller.org_id });
      return { body: ok('OAuth Client deleted successfully') };
    },
  },
  {
    method: 'get',
    path: '/apis/oauth/:apiId/:clientId/tokens',
    permission: read,
    handle: async ({ caller, params, call }) => ({
      body: await call('oauth.listTokens', {
        api_id: params.apiId,
        client_id: params.clientId,
        org_scope: caller.org_id,
      }),
    }),
  },
  {
    method: 'post',
    path: '/apis/oauth/:clientId/revoke',
    permission: write,
    anyBodyType: true,
    handle: async ({ caller, params, fields, call }) => {
      const { token, token_type_hint } = fields();
      if (!token) throw new HttpProblem(400, 'token is required');
      await call('oauth.revoke', { client_id: params.clientId, token, token_type_hint, org_scope: caller.org_id });
      return { body: ok('token revoked successfully') };
    },
  },
  {
    method: 'post',
    path: '/apis/oauth/:clientId/revoke_all',
    permission: write,
    anyBodyType: true,
    handle: async ({ caller, params, fields, call }) => {
      const { client_secret } = fields();
      if (!client_secret) throw new HttpProblem(400, 'client_secret is required');
      await call('oauth.revokeAll', { client_id: params.clientId, client_secret, org_scope: caller.org_id });
      return { body: ok('tokens revoked successfully') };
    },
  },
  {
    method: 'post',
    path: '/apis/oauth/:apiId/authorize-client',
    permission: write,
    anyBodyType: true,
    handle: async ({ caller, params, fields, call }) => {
      const form = fields();
      const result = await call('oauth.authorizeClient', {
        api_id: params.apiId,
        response_type: form.response_type ?? '',
        client_id: form.client_id ?? '',
        redirect_uri: form.redirect_uri ?? '',
        key_rules: form.key_rules,
        code_challenge: form.code_challenge,
        code_challenge_method: form.code_challenge_method,
        org_scope: caller.org_id,
      });
      return { body: result };
    },
  },
];

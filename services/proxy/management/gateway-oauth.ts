import type { OAuthCreateClientParams, OAuthUpdateClientParams } from '../../../contracts/oauth/actions';
import { HttpProblem } from '../../../lib/http/problem';
import { renamingErrors } from '../../../lib/http/rename-errors';
import type { Route, RouteContext } from '../../../lib/http/surface';

type Admin = 'gateway-admin';

/** An unknown API reads, on these routes, as an unknown client (the reference's answer). */
const CLIENT_OF_UNKNOWN_API = { GW_ERR_APIS_NOT_FOUND: [404, 'OAuth Client ID not found'] as [number, string] };

/**
 * OAuth clients on the gateway management API, as the reference gateway's `/tyk/oauth/…`:
 * `POST /gw/oauth/clients/create` (`{api_id, redirect_uri, policy_id?, client_id?, secret?,
 * description?, meta_data?}`), list, get, update, secret rotation, delete, token listing (paged
 * with `?page=`), the APIs of a client, and `POST /gw/oauth/authorize-client/` (form-encoded;
 * the client names the API). A secret is kept hashed: only creation and rotation show it.
 */
export const gatewayOAuthRoutes: Array<Route<Admin>> = [
  {
    method: 'post',
    path: '/oauth/clients/create',
    handle: async ({ body, call }) => {
      const { org_scope: _ignored, ...params } = bodyOr<OAuthCreateClientParams>(body);
      return {
        body: await renamingErrors(call('oauth.createClient', params), {
          GW_ERR_APIS_NOT_FOUND: [400, "API doesn't exist"],
        }),
      };
    },
  },
  {
    // Before /oauth/clients/:apiId/:clientId, which would take `apis` for an API id.
    method: 'get',
    path: '/oauth/clients/apis/:clientId',
    handle: async ({ params, query, call }) => ({
      body: await call('oauth.clientApis', {
        client_id: params.clientId,
        org_id: typeof query.orgID === 'string' ? query.orgID : undefined,
      }),
    }),
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
      body: await renamingErrors(
        call('oauth.getClient', { api_id: params.apiId, client_id: params.clientId }),
        CLIENT_OF_UNKNOWN_API,
      ),
    }),
  },
  {
    method: 'put',
    path: '/oauth/clients/:apiId/:clientId',
    handle: async ({ params, body, call }) => {
      const { redirect_uri, policy_id, description, meta_data } = bodyOr<ClientBody>(body);
      return {
        body: await call('oauth.updateClient', {
          api_id: params.apiId,
          client_id: params.clientId,
          redirect_uri: redirect_uri ?? '',
          policy_id,
          description,
          meta_data: meta_data ?? undefined,
        }),
      };
    },
  },
  {
    method: 'put',
    path: '/oauth/clients/:apiId/:clientId/rotate',
    handle: async ({ params, call }) => ({
      body: await call('oauth.rotateSecret', { api_id: params.apiId, client_id: params.clientId }),
    }),
  },
  {
    method: 'delete',
    path: '/oauth/clients/:apiId/:clientId',
    handle: async ({ params, call }) => {
      await renamingErrors(
        call('oauth.removeClient', { api_id: params.apiId, client_id: params.clientId }),
        CLIENT_OF_UNKNOWN_API,
      );
      return { body: { key: params.clientId, status: 'ok', action: 'deleted' } };
    },
  },
  {
    method: 'get',
    path: '/oauth/clients/:apiId/:clientId/tokens',
    handle: async ({ params, query, call }) => {
      const client = { api_id: params.apiId, client_id: params.clientId };
      if (query.page === undefined || query.page === '')
        return { body: await renamingErrors(call('oauth.listTokens', client), CLIENT_OF_UNKNOWN_API) };
      // As the reference: a page that is not a positive number is the first.
      const asked = typeof query.page === 'string' && /^\d{1,9}$/.test(query.page) ? Number(query.page) : 1;
      const page = Math.max(1, asked);
      const listed = await renamingErrors(call('oauth.listTokensPage', { ...client, page }), CLIENT_OF_UNKNOWN_API);
      return {
        body: {
          Pagination: { page_size: listed.page_size, page_num: page, page_total: listed.pages },
          Tokens: listed.tokens,
        },
      };
    },
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

type ClientBody = Partial<Omit<OAuthUpdateClientParams, 'meta_data'>> & { meta_data?: Record<string, unknown> | null };

/** A client's body; one that is not a JSON object is the reference's 500 "Unmarshalling failed". */
function bodyOr<T extends object>(body: RouteContext<Admin>['body']): T {
  try {
    return body<T>();
  } catch (err) {
    throw new HttpProblem(500, `Unmarshalling failed: ${(err as Error).message}`);
  }
}

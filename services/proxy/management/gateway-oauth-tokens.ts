import { HttpProblem } from '../../../lib/http/problem';
import { renamingErrors } from '../../../lib/http/rename-errors';
import type { Route } from '../../../lib/http/surface';

type Admin = 'gateway-admin';

const CLIENT_MISSING = "oauth client doesn't exist";

/**
 * What was issued to OAuth clients, on the gateway management API as the reference gateway's
 * `/tyk/oauth/…`: refresh-token invalidation, the purge of lapsed tokens, and revocation of one
 * token or of all a client's tokens (form bodies). A revoked token's key is deleted, and every
 * gateway node forgets it on the `keys.changed` broadcast.
 */
export const gatewayOAuthTokenRoutes: Array<Route<Admin>> = [
  {
    method: 'delete',
    path: '/oauth/refresh/:token',
    handle: async ({ params, query, call }) => {
      const apiId = typeof query.api_id === 'string' ? query.api_id : '';
      if (apiId === '') throw new HttpProblem(400, 'Missing parameter api_id');
      await renamingErrors(call('oauth.removeRefresh', { api_id: apiId, refresh_token: params.token }), {
        GW_ERR_APIS_NOT_FOUND: [404, 'API for this refresh token not found'],
        GW_ERR_OAUTH_INVALID: [400, 'OAuth is not enabled on this API'],
      });
      return { body: { key: params.token, status: 'ok', action: 'deleted' } };
    },
  },
  {
    method: 'delete',
    path: '/oauth/tokens',
    handle: async ({ query, call }) => {
      if (query.scope === undefined) throw new HttpProblem(422, 'scope parameter is required');
      if (query.scope !== 'lapsed') throw new HttpProblem(400, 'unknown scope');
      await call('oauth.purgeLapsed', {});
      return { body: { status: 'ok', message: 'lapsed tokens purged' } };
    },
  },
  {
    method: 'post',
    path: '/oauth/revoke',
    anyBodyType: true,
    handle: async ({ fields, call }) => {
      const form = fields();
      if (!form.token) throw new HttpProblem(400, 'token is required');
      if (!form.client_id) throw new HttpProblem(400, 'client_id is required');
      // Only a token issued to this client is revoked: another client's stays valid.
      await renamingErrors(
        call('oauth.revoke', {
          client_id: form.client_id,
          token: form.token,
          token_type_hint: form.token_type_hint || undefined,
          org_scope: form.org_id || undefined,
        }),
        { GW_ERR_OAUTH_NOT_FOUND: [400, CLIENT_MISSING] },
      );
      return { body: { status: 'ok', message: 'token revoked successfully' } };
    },
  },
  {
    method: 'post',
    path: '/oauth/revoke_all',
    anyBodyType: true,
    handle: async ({ fields, call }) => {
      const form = fields();
      if (!form.client_id) throw new HttpProblem(401, 'client_id is required');
      if (!form.client_secret) throw new HttpProblem(401, 'client_secret is required');
      await renamingErrors(
        call('oauth.revokeAll', {
          client_id: form.client_id,
          client_secret: form.client_secret,
          org_scope: form.org_id || undefined,
        }),
        { GW_ERR_OAUTH_NOT_FOUND: [404, CLIENT_MISSING], GW_ERR_OAUTH_BAD_SECRET: [401, 'client secret is wrong'] },
      );
      return { body: { status: 'ok', message: 'tokens revoked successfully' } };
    },
  },
];

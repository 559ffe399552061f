import { ADMINISTRATOR, type UserInput } from '../../../contracts/users/actions';
import { envelopeError, ok } from '../../../lib/http/envelope';
import { HttpProblem } from '../../../lib/http/problem';
import type { Surface } from '../../../lib/http/surface';
import { headerValue, secretMatches } from '../../../lib/http/credentials';
import { pageFromQuery } from '../lib/page-param';
import { adminOrgSessionRoutes } from './admin-org-sessions';

/** The dashboard admin API (`/admin`), guarded by the `admin-auth` shared secret. */
export function adminSurface(adminSecret: string): Surface<'admin'> {
  return {
    name: 'admin',
    async authenticate(req) {
      const presented = headerValue(req.headers['admin-auth']);
      if (!presented) throw new HttpProblem(401, 'admin-auth header missing: send the admin secret');
      if (!secretMatches(presented, adminSecret)) throw new HttpProblem(403, 'admin-auth secret is not valid');
      return 'admin';
    },
    renderError: envelopeError,
    routes: [
      ...adminOrgSessionRoutes,
      {
        method: 'get',
        path: '/organisations',
        handle: async ({ query, call }) => ({ body: await call('orgs.list', { page: pageFromQuery(query) }) }),
      },
      {
        method: 'get',
        path: '/organisations/:id',
        handle: async ({ params, call }) => ({ body: await call('orgs.get', { id: params.id }) }),
      },
      {
        method: 'post',
        path: '/organisations',
        handle: async ({ body, call }) => {
          const created = await call('orgs.create', { organisation: body() });
          return { body: ok('Org created', created.id) };
        },
      },
      {
        method: 'put',
        path: '/organisations/:id',
        handle: async ({ params, body, call }) => {
          await call('orgs.update', { id: params.id, organisation: body() });
          return { body: ok('Org updated') };
        },
      },
      {
        method: 'delete',
        path: '/organisations/:id',
        handle: async ({ params, call }) => {
          await call('orgs.remove', { id: params.id });
          return { body: ok('Org deleted') };
        },
      },
      {
        method: 'post',
        path: '/users',
        handle: async ({ body, call }) => {
          const user = await call('users.create', { user: body<UserInput>(), actor: ADMINISTRATOR });
          return { body: ok('User created', user) };
        },
      },
      {
        method: 'get',
        path: '/users/:id',
        handle: async ({ params, call }) => ({ body: await call('users.get', { id: params.id }) }),
      },
      {
        method: 'put',
        path: '/users/:id/actions/allow_reset_passwords',
        handle: async ({ params, call }) => ({
          body: ok('User updated', await call('users.setResetPasswords', { id: params.id, allowed: true })),
        }),
      },
      {
        method: 'put',
        path: '/users/:id/actions/disallow_reset_passwords',
        handle: async ({ params, call }) => ({
          body: ok('User updated', await call('users.setResetPasswords', { id: params.id, allowed: false })),
        }),
      },
    ],
  };
}

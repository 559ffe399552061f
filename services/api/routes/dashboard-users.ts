import type {
  Actor,
  Caller,
  SsoCreateParams,
  UserGroupInput,
  UserInput,
  UsersResetPasswordParams,
} from '../../../contracts/users/actions';
import { ok } from '../../../lib/http/envelope';
import { HttpProblem } from '../../../lib/http/problem';
import type { Route } from '../../../lib/http/surface';
import { pageFromQuery } from '../lib/page-param';

/**
 * Users and user groups (docs/users-and-organisations.md). Every route names the permission it
 * needs; a user may always change its own password and renew its own access key (`ownUserParam`:
 * neither gives it more than it holds). Changes act as the caller: the users service refuses to
 * grant more than the caller holds or to touch anyone holding more.
 */
export const dashboardUserRoutes: Array<Route<Caller>> = [
  {
    method: 'post',
    path: '/sso',
    permission: { name: 'users', level: 'write' },
    handle: async ({ caller, body, call }) => {
      const request = body<SsoCreateParams>();
      const nonce = await call('users.sso.create', { ...request, org_scope: caller.org_id, actor: actorOf(caller) });
      return { body: ok('SSO Nonce created', nonce) };
    },
  },
  {
    method: 'get',
    path: '/users',
    permission: { name: 'users', level: 'read' },
    handle: async ({ caller, query, call }) => ({
      body: await call('users.list', { org_scope: caller.org_id, page: pageFromQuery(query) }),
    }),
  },
  {
    method: 'get',
    path: '/users/:id',
    permission: { name: 'users', level: 'read' },
    handle: async ({ caller, params, call }) => ({
      body: await call('users.get', { id: params.id, org_scope: caller.org_id }),
    }),
  },
  {
    method: 'post',
    path: '/users',
    permission: { name: 'users', level: 'write' },
    handle: async ({ caller, body, call }) => {
      const input = body<UserInput>();
      const user = await call('users.create', { user: input, org_scope: caller.org_id, actor: actorOf(caller) });
      return { body: ok('User created', user) };
    },
  },
  {
    method: 'put',
    path: '/users/:id',
    permission: { name: 'users', level: 'write' },
    handle: async ({ caller, params, body, call }) => {
      // The password changes through actions/reset only.
      const { password: _password, ...changes } = body();
      const actor = actorOf(caller);
      await call('users.update', { id: params.id, user: changes, org_scope: caller.org_id, actor });
      return { body: ok('User updated') };
    },
  },
  {
    method: 'delete',
    path: '/users/:id',
    permission: { name: 'users', level: 'write' },
    handle: async ({ caller, params, call }) => {
      if (params.id === caller.user_id) throw new HttpProblem(400, 'You can not delete your own user');
      await call('users.remove', { id: params.id, org_scope: caller.org_id, actor: actorOf(caller) });
      return { body: ok('User deleted') };
    },
  },
  {
    method: 'post',
    path: '/users/:id/actions/reset',
    permission: { name: 'users', level: 'write' },
    ownUserParam: 'id',
    handle: async ({ caller, params, body, call }) => {
      const { current_password, new_password } = body<UsersResetPasswordParams>();
      const actor = actorOf(caller);
      await call('users.resetPassword', {
        id: params.id,
        org_scope: caller.org_id,
        current_password,
        new_password,
        actor,
      });
      return { body: ok('User password updated') };
    },
  },
  {
    method: 'put',
    path: '/users/:id/actions/key/reset',
    permission: { name: 'users', level: 'write' },
    ownUserParam: 'id',
    handle: async ({ caller, params, call }) => {
      const actor = actorOf(caller);
      const user = await call('users.resetKey', { id: params.id, org_scope: caller.org_id, actor });
      return { body: ok('User session renewed', user.access_key) };
    },
  },
  {
    method: 'get',
    path: '/usergroups',
    permission: { name: 'user_groups', level: 'read' },
    handle: async ({ caller, query, call }) => ({
      body: await call('users.groups.list', { org_scope: caller.org_id, page: pageFromQuery(query) }),
    }),
  },
  {
    method: 'get',
    path: '/usergroups/:id',
    permission: { name: 'user_groups', level: 'read' },
    handle: async ({ caller, params, call }) => ({
      body: await call('users.groups.get', { id: params.id, org_scope: caller.org_id }),
    }),
  },
  {
    method: 'post',
    path: '/usergroups',
    permission: { name: 'user_groups', level: 'write' },
    handle: async ({ caller, body, call }) => {
      const input = body<UserGroupInput>();
      const group = await call('users.groups.create', {
        group: input,
        org_scope: caller.org_id,
        actor: actorOf(caller),
      });
      return { body: ok('User group created', group.id) };
    },
  },
  {
    method: 'put',
    path: '/usergroups/:id',
    permission: { name: 'user_groups', level: 'write' },
    handle: async ({ caller, params, body, call }) => {
      const input = body<UserGroupInput>();
      await call('users.groups.update', {
        id: params.id,
        group: input,
        org_scope: caller.org_id,
        actor: actorOf(caller),
      });
      return { body: ok('User group updated') };
    },
  },
  {
    method: 'delete',
    path: '/usergroups/:id',
    permission: { name: 'user_groups', level: 'write' },
    handle: async ({ caller, params, call }) => {
      await call('users.groups.remove', { id: params.id, org_scope: caller.org_id, actor: actorOf(caller) });
      return { body: ok('User group deleted') };
    },
  },
];

/** What the caller holds: all the users service needs to bound its changes. */
function actorOf(caller: Caller): Actor {
  return { is_admin: caller.is_admin, user_permissions: caller.user_permissions };
}

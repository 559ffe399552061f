import type { KeyRecord } from '../../../contracts/keys/actions';
import type { Session } from '../../../contracts/keys/session';
import type { Caller } from '../../../contracts/users/actions';
import { ok } from '../../../lib/http/envelope';
import type { Route, RouteContext } from '../../../lib/http/surface';
import { pageFromQuery } from '../lib/page-param';

/**
 * Access keys, basic-auth users and policies on the dashboard REST API (docs/authentication.md).
 * `{api-id}` is the API's internal or public id.
 */
export const dashboardKeyRoutes: Array<Route<Caller>> = [
  {
    method: 'post',
    path: '/keys',
    permission: { name: 'keys', level: 'write' },
    handle: async ({ caller, body, call }) => ({
      body: withModel(await call('keys.create', { session: body<Session>(), org_scope: caller.org_id })),
    }),
  },
  {
    method: 'post',
    path: '/keys/:customKey',
    permission: { name: 'keys', level: 'write' },
    handle: async ({ caller, params, body, call }) => ({
      body: withModel(
        await call('keys.create', { session: body<Session>(), custom_key: params.customKey, org_scope: caller.org_id }),
      ),
    }),
  },
  {
    method: 'post',
    path: '/apis/keys/basic/:username',
    permission: { name: 'keys', level: 'write' },
    handle: async ({ caller, params, body, call }) => {
      const created = await call('keys.saveBasicUser', {
        username: params.username,
        session: body<Session>(),
        mode: 'create',
        org_scope: caller.org_id,
      });
      return { body: { api_model: {}, key_id: created.key_id, data: created.data } };
    },
  },
  {
    method: 'put',
    path: '/apis/keys/basic/:username',
    permission: { name: 'keys', level: 'write' },
    handle: async ({ caller, params, body, call }) => {
      await call('keys.saveBasicUser', {
        username: params.username,
        session: body<Session>(),
        mode: 'update',
        org_scope: caller.org_id,
      });
      return { body: ok('Key updated') };
    },
  },
  {
    method: 'get',
    path: '/apis/:apiId/keys',
    permission: { name: 'keys', level: 'read' },
    handle: async (ctx) => {
      const apiId = await publicApiId(ctx);
      const listed = await ctx.call('keys.list', {
        api_id: apiId,
        org_scope: ctx.caller.org_id,
        page: pageFromQuery(ctx.query),
      });
      return { body: { data: { keys: listed.keys }, pages: listed.pages } };
    },
  },
  {
    method: 'get',
    path: '/apis/:apiId/keys/:keyId',
    permission: { name: 'keys', level: 'read' },
    handle: async (ctx) => {
      await publicApiId(ctx);
      const found = await ctx.call('keys.get', { key: ctx.params.keyId, org_scope: ctx.caller.org_id });
      return { body: { api_model: {}, key_id: found.key_id, data: found.data } };
    },
  },
  {
    method: 'put',
    path: '/apis/:apiId/keys/:keyId',
    permission: { name: 'keys', level: 'write' },
    handle: async (ctx) => {
      await publicApiId(ctx);
      const updated = await ctx.call('keys.update', {
        key: ctx.params.keyId,
        session: ctx.body<Session>(),
        org_scope: ctx.caller.org_id,
      });
      // A key that turns HMAC on gets a new secret, shown in this answer only.
      return { body: ok('Key updated', updated.data.hmac_string ? { hmac_string: updated.data.hmac_string } : null) };
    },
  },
  {
    method: 'delete',
    path: '/apis/:apiId/keys/:keyId',
    permission: { name: 'keys', level: 'write' },
    handle: async (ctx) => {
      await publicApiId(ctx);
      await ctx.call('keys.remove', { key: ctx.params.keyId, org_scope: ctx.caller.org_id });
      // Spelled as the reference dashboard spells it.
      return { body: ok('Key deleted succesfully') };
    },
  },
  {
    method: 'get',
    path: '/portal/policies',
    permission: { name: 'policies', level: 'read' },
    handle: async ({ caller, query, call }) => ({
      body: await call('keys.policies.list', { org_scope: caller.org_id, page: pageFromQuery(query) }),
    }),
  },
  {
    method: 'get',
    path: '/portal/policies/:id',
    permission: { name: 'policies', level: 'read' },
    handle: async ({ caller, params, call }) => ({
      body: await call('keys.policies.get', { id: params.id, org_scope: caller.org_id }),
    }),
  },
  {
    method: 'post',
    path: '/portal/policies',
    permission: { name: 'policies', level: 'write' },
    handle: async ({ caller, body, call }) => {
      const created = await call('keys.policies.create', { policy: body(), org_scope: caller.org_id });
      return { body: ok('Policy created', created.id) };
    },
  },
  {
    method: 'put',
    path: '/portal/policies/:id',
    permission: { name: 'policies', level: 'write' },
    handle: async ({ caller, params, body, call }) => {
      await call('keys.policies.update', { id: params.id, policy: body(), org_scope: caller.org_id });
      return { body: ok('Policy updated') };
    },
  },
  {
    method: 'delete',
    path: '/portal/policies/:id',
    permission: { name: 'policies', level: 'write' },
    handle: async ({ caller, params, call }) => {
      await call('keys.policies.remove', { id: params.id, org_scope: caller.org_id });
      return { body: ok('Policy deleted') };
    },
  },
];

/** The API named in the path must exist in the caller's organisation. */
async function publicApiId({ caller, params, call }: RouteContext<Caller>): Promise<string> {
  const record = await call('apis.get', { id: params.apiId, org_scope: caller.org_id });
  return record.api_definition.api_id;
}

function withModel(record: KeyRecord) {
  return { api_model: {}, key_id: record.key_id, data: record.data, key_hash: record.key_hash };
}

import type { KeyRecord } from '../../../contracts/keys/actions';
import type { Session } from '../../../contracts/keys/session';
import { HttpProblem } from '../../../lib/http/problem';
import type { Route } from '../../../lib/http/surface';

type Admin = 'gateway-admin';

/**
 * Keys, basic-auth users and policies on the gateway management API (`/gw/keys`,
 * `/gw/policies`), answering `{key, status, action, key_hash?}` as the reference gateway does.
 * `POST /gw/keys/{name}` creates a basic-auth user when the body carries
 * `basic_auth_data.password`, a custom key otherwise.
 */
export const gatewayKeyRoutes: Array<Route<Admin>> = [
  {
    method: 'get',
    path: '/keys',
    handle: async ({ call }) => ({ body: { keys: (await call('keys.list', { page: 0 })).keys } }),
  },
  {
    method: 'post',
    path: '/keys',
    handle: async ({ body, call }) => ({
      body: result(await call('keys.create', { session: body<Session>() }), 'added'),
    }),
  },
  {
    // As the reference gateway's /tyk/keys/create: a generated key, not a key named "create".
    method: 'post',
    path: '/keys/create',
    handle: async ({ body, call }) => ({
      body: result(await call('keys.create', { session: body<Session>() }), 'added'),
    }),
  },
  {
    method: 'post',
    path: '/keys/:key',
    handle: async ({ params, body, call }) => {
      const session = body<Session>();
      if (session.basic_auth_data?.password) {
        const created = await call('keys.saveBasicUser', { username: params.key, session, mode: 'create' });
        return { body: { ...result(created, 'added'), key: `${created.data.org_id ?? ''}${params.key}` } };
      }
      return { body: result(await call('keys.create', { session, custom_key: params.key }), 'added') };
    },
  },
  {
    method: 'get',
    path: '/keys/:key',
    handle: async ({ params, call }) => ({ body: (await call('keys.get', { key: params.key })).data }),
  },
  {
    method: 'put',
    path: '/keys/:key',
    handle: async ({ params, body, call }) => {
      const session = body<Session>();
      if (session.basic_auth_data !== undefined) {
        const updated = await call('keys.saveBasicUser', { username: params.key, session, mode: 'update' });
        return { body: { ...result(updated, 'modified'), key: `${updated.data.org_id ?? ''}${params.key}` } };
      }
      const updated = await call('keys.update', { key: params.key, session });
      return { body: { ...result(updated, 'modified'), key: params.key } };
    },
  },
  {
    method: 'delete',
    path: '/keys/:key',
    handle: async ({ params, call }) => {
      await call('keys.remove', { key: params.key });
      return { body: { key: params.key, status: 'ok', action: 'deleted' } };
    },
  },
  {
    method: 'get',
    path: '/policies',
    handle: async ({ call }) => ({ body: (await call('keys.policies.list', { page: 0 })).policies }),
  },
  {
    method: 'get',
    path: '/policies/:id',
    handle: async ({ params, call }) => ({ body: await call('keys.policies.get', { id: params.id }) }),
  },
  {
    method: 'post',
    path: '/policies',
    handle: async ({ body, call }) => ({
      body: { key: (await call('keys.policies.create', { policy: body() })).id, status: 'ok', action: 'added' },
    }),
  },
  {
    method: 'put',
    path: '/policies/:id',
    handle: async ({ params, body, call }) => {
      const policy = body<Record<string, unknown>>();
      // An update names one policy: a body naming another is refused, not applied to the path's.
      if (policy.id !== undefined && policy.id !== params.id) {
        throw new HttpProblem(400, 'Request ID does not match that in policy! For Update operations these must match.');
      }
      await call('keys.policies.update', { id: params.id, policy });
      return { body: { key: params.id, status: 'ok', action: 'modified' } };
    },
  },
  {
    method: 'delete',
    path: '/policies/:id',
    handle: async ({ params, call }) => {
      await call('keys.policies.remove', { id: params.id });
      return { body: { key: params.id, status: 'ok', action: 'deleted' } };
    },
  },
];

/** A newly generated HMAC secret is in the answer that made it, and nowhere else. */
function result(record: KeyRecord, action: 'added' | 'modified') {
  const secret = record.data.hmac_string;
  return {
    key: record.key_id,
    status: 'ok',
    action,
    key_hash: record.key_hash,
    ...(secret ? { hmac_string: secret } : {}),
  };
}

import type { KeyRecord } from '../../../contracts/keys/actions';
import type { Session } from '../../../contracts/keys/session';
import { HttpProblem } from '../../../lib/http/problem';
import { renamingErrors } from '../../../lib/http/rename-errors';
import type { Route, RouteContext } from '../../../lib/http/surface';

type Admin = 'gateway-admin';

/**
 * Keys, basic-auth users and policies on the gateway management API (`/gw/keys`,
 * `/gw/policies`), answering `{key, status, action, key_hash?}` as the reference gateway does.
 * `POST /gw/keys/{name}` creates a basic-auth user when the body carries
 * `basic_auth_data.password`, a custom key otherwise. Query parameters: `hashed=true` (the path
 * names the key by its hash; on POST, imports a key by its hash), `api_id` (look in that API's
 * organisation), `suppress_reset=1` (an update keeps the key's quota; without it the quota starts
 * afresh), and on the listing `filter` (a prefix of the keys) and `api_id`.
 */
export const gatewayKeyRoutes: Array<Route<Admin>> = [
  {
    method: 'get',
    path: '/keys',
    handle: async ({ query, call }) => {
      const listed = await renamingErrors(
        call('keys.list', { page: 0, api_id: text(query.api_id), filter: text(query.filter) }),
        {
          GW_ERR_KEYS_LISTING_DISABLED: [404, 'Hashed key listing is disabled in config (enable_hashed_keys_listing)'],
        },
      );
      return { body: { keys: listed.keys } };
    },
  },
  {
    // Before /keys/:key, which would take `preview` for a key. Nothing is stored.
    method: 'post',
    path: '/keys/preview',
    handle: async ({ body, call }) => ({
      body: await call('keys.preview', { session: bodyOr<Session>(body, 500, 'Unmarshalling failed') }),
    }),
  },
  {
    method: 'post',
    path: '/keys/policy/:key',
    handle: async ({ params, body, call }) => {
      const instruction = bodyOr<{ apply_policies?: unknown; policy?: unknown }>(
        body,
        400,
        "Couldn't decode instruction",
      );
      const { apply_policies: listed = [], policy = '' } = instruction;
      if ((listed !== null && !Array.isArray(listed)) || typeof policy !== 'string')
        throw new HttpProblem(
          400,
          "Couldn't decode instruction: apply_policies must be a list of policy ids, and policy one policy id",
        );
      const policies = [...((listed as string[] | null) ?? []), ...(policy !== '' ? [policy] : [])];
      await call('keys.setPolicies', { key: params.key, apply_policies: policies });
      return { body: { key: params.key, status: 'ok', action: 'updated' } };
    },
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
      body: result(await call('keys.create', { session: bodyOr<Session>(body, 500, 'Unmarshalling failed') }), 'added'),
    }),
  },
  {
    method: 'post',
    path: '/keys/:key',
    handle: async ({ params, query, body, call }) => {
      const session = body<Session>();
      if (session.basic_auth_data?.password) {
        const created = await call('keys.saveBasicUser', { username: params.key, session, mode: 'create' });
        return { body: { ...result(created, 'added'), key: `${created.data.org_id ?? ''}${params.key}` } };
      }
      const name = flag(query.hashed) ? { custom_key_hash: params.key } : { custom_key: params.key };
      return { body: result(await call('keys.create', { session, ...name }), 'added') };
    },
  },
  {
    method: 'get',
    path: '/keys/:key',
    handle: async ({ params, query, call }) => ({
      // As the reference shows a key: with its policies applied, live quota included.
      body: (await call('keys.get', { key: params.key, ...lookup(query), effective: true })).data,
    }),
  },
  {
    method: 'put',
    path: '/keys/:key',
    handle: async ({ params, query, body, call }) => {
      const session = body<Session>();
      if (session.basic_auth_data !== undefined) {
        const updated = await call('keys.saveBasicUser', { username: params.key, session, mode: 'update' });
        return { body: { ...result(updated, 'modified'), key: `${updated.data.org_id ?? ''}${params.key}` } };
      }
      const updated = await call('keys.update', {
        key: params.key,
        session,
        ...lookup(query),
        reset_quota: query.suppress_reset !== '1',
      });
      return { body: { ...result(updated, 'modified'), key: params.key } };
    },
  },
  {
    method: 'delete',
    path: '/keys/:key',
    handle: async ({ params, query, call }) => {
      await renamingErrors(call('keys.remove', { key: params.key, ...lookup(query) }), {
        GW_ERR_KEYS_NOT_FOUND: [404, 'There is no such key found'],
      });
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

type Query = RouteContext<Admin>['query'];

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function flag(value: unknown): boolean {
  return value === 'true' || value === '1';
}

/** `?hashed=` and `?api_id=` of a single-key operation; `api_id=-1` (every API) narrows nothing. */
function lookup(query: Query): { hashed: boolean; api_id?: string } {
  const apiId = text(query.api_id);
  return { hashed: flag(query.hashed), ...(apiId !== undefined && apiId !== '-1' ? { api_id: apiId } : {}) };
}

/** The body as one JSON object, or the reference's status and words for one that is not (and why). */
function bodyOr<T extends object>(body: RouteContext<Admin>['body'], status: number, message: string): T {
  try {
    return body<T>();
  } catch (err) {
    throw new HttpProblem(status, `${message}: ${(err as Error).message}`);
  }
}

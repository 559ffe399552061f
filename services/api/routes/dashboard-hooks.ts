import type { Caller } from '../../../contracts/users/actions';
import { ok } from '../../../lib/http/envelope';
import type { Route } from '../../../lib/http/surface';
import { pageFromQuery } from '../lib/page-param';

const READ = { name: 'hooks', level: 'read' } as const;
const WRITE = { name: 'hooks', level: 'write' } as const;

/** Webhooks (docs/webhooks-and-events.md#webhooks), and the log of their deliveries. */
export const dashboardHookRoutes: Array<Route<Caller>> = [
  {
    method: 'get',
    path: '/hooks',
    permission: READ,
    handle: async ({ caller, query, call }) => ({
      body: await call('webhooks.list', { org_scope: caller.org_id, page: pageFromQuery(query) }),
    }),
  },
  {
    method: 'get',
    path: '/hooks/:id',
    permission: READ,
    handle: async ({ caller, params, call }) => ({
      body: await call('webhooks.get', { id: params.id, org_scope: caller.org_id }),
    }),
  },
  {
    method: 'get',
    path: '/hooks/:id/deliveries',
    permission: READ,
    handle: async ({ caller, params, call }) => ({
      body: await call('webhooks.deliveries', { id: params.id, org_scope: caller.org_id }),
    }),
  },
  {
    method: 'post',
    path: '/hooks',
    permission: WRITE,
    handle: async ({ caller, body, call }) => ({
      body: ok('Webhook created', (await call('webhooks.create', { hook: body(), org_scope: caller.org_id })).id),
    }),
  },
  {
    method: 'put',
    path: '/hooks/:id',
    permission: WRITE,
    handle: async ({ caller, params, body, call }) => {
      await call('webhooks.update', { id: params.id, hook: body(), org_scope: caller.org_id });
      return { body: ok('Webhook updated') };
    },
  },
  {
    method: 'delete',
    path: '/hooks/:id',
    permission: WRITE,
    handle: async ({ caller, params, call }) => {
      await call('webhooks.remove', { id: params.id, org_scope: caller.org_id });
      return { body: ok('Webhook deleted') };
    },
  },
];

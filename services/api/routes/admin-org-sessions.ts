import type { OrgSession } from '../../../contracts/keys/org-sessions';
import { ok } from '../../../lib/http/envelope';
import type { Route } from '../../../lib/http/surface';

/**
 * An organisation's session (its shared rate limit and quota, and `is_inactive`, which cuts the
 * whole organisation off) on the admin API: only the node's administrator (the `admin-auth`
 * secret) sets it, never a user of the organisation, whose limits these are
 * (docs/limits.md#organisation-quotas). `?reset_quota=1` starts the counters afresh.
 */
export const adminOrgSessionRoutes: Array<Route<'admin'>> = [
  {
    method: 'get',
    path: '/organisations/:id/session',
    handle: async ({ params, call }) => {
      await call('orgs.get', { id: params.id });
      return { body: await call('keys.orgSessions.get', { org_id: params.id }) };
    },
  },
  {
    method: 'put',
    path: '/organisations/:id/session',
    handle: async ({ params, query, body, call }) => {
      // no session for an organisation that does not exist (404 from orgs)
      await call('orgs.get', { id: params.id });
      const saved = await call('keys.orgSessions.save', {
        org_id: params.id,
        session: body<OrgSession>(),
        reset_quota: query.reset_quota === '1',
      });
      return { body: ok(saved.created ? 'Organisation session created' : 'Organisation session updated') };
    },
  },
  {
    method: 'delete',
    path: '/organisations/:id/session',
    handle: async ({ params, call }) => {
      await call('keys.orgSessions.remove', { org_id: params.id });
      return { body: ok('Organisation session deleted') };
    },
  },
];

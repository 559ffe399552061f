import type { Caller } from '../../../contracts/users/actions';
import type { Route } from '../../../lib/http/surface';

/**
 * The caller's own organisation session, read-only, for its administrators: the limits the
 * node's administrator set on the organisation, with the live quota. Only the admin API changes
 * it (services/api/routes/admin-org-sessions.ts).
 */
export const dashboardOrgSessionRoutes: Array<Route<Caller>> = [
  {
    method: 'get',
    path: '/org/session',
    permission: { name: 'IsAdmin', level: 'admin' },
    handle: async ({ caller, call }) => ({ body: await call('keys.orgSessions.get', { org_id: caller.org_id }) }),
  },
];

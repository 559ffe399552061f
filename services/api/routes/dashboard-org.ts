import type {
  OrgSettingsResult,
  OrgsSetOpenPolicyParams,
  OrgsSetPermissionsParams,
} from '../../../contracts/orgs/actions';
import type { Caller } from '../../../contracts/users/actions';
import { ok } from '../../../lib/http/envelope';
import { HttpProblem } from '../../../lib/http/problem';
import type { Route, RouteContext } from '../../../lib/http/surface';

const ADMIN = { name: 'IsAdmin', level: 'admin' } as const;

/**
 * Organisation-level settings, for administrators only
 * (docs/users-and-organisations.md#organisation-settings). `/api/org/permissions` and
 * `/api/org/opa` set one each; `PUT /api/org/permission` sets either, by the body.
 */
export const dashboardOrgRoutes: Array<Route<Caller>> = [
  {
    method: 'get',
    path: '/org/permissions',
    permission: ADMIN,
    handle: async ({ caller, call }) => ({
      body: { additional_permissions: (await settings(call, caller)).additional_permissions },
    }),
  },
  { method: 'put', path: '/org/permissions', permission: ADMIN, handle: (ctx) => savePermissions(ctx) },
  {
    method: 'get',
    path: '/org/opa',
    permission: ADMIN,
    handle: async ({ caller, call }) => ({ body: { open_policy: (await settings(call, caller)).open_policy } }),
  },
  { method: 'put', path: '/org/opa', permission: ADMIN, handle: (ctx) => saveOpenPolicy(ctx) },
  {
    method: 'put',
    path: '/org/permission',
    permission: ADMIN,
    handle: (ctx) => {
      const body = ctx.body();
      if ('open_policy' in body) return saveOpenPolicy(ctx);
      if ('additional_permissions' in body) return savePermissions(ctx);
      throw new HttpProblem(400, 'Send either additional_permissions or open_policy');
    },
  },
];

function settings(call: RouteContext<Caller>['call'], caller: Caller): Promise<OrgSettingsResult> {
  return call('orgs.settings.get', { org_id: caller.org_id });
}

async function savePermissions({ caller, body, call }: RouteContext<Caller>) {
  await call('orgs.settings.setPermissions', {
    org_id: caller.org_id,
    additional_permissions: body<OrgsSetPermissionsParams>().additional_permissions,
  });
  return { body: ok('Additional Permissions updated in org level') };
}

async function saveOpenPolicy({ caller, body, call }: RouteContext<Caller>) {
  await call('orgs.settings.setOpenPolicy', {
    org_id: caller.org_id,
    open_policy: body<OrgsSetOpenPolicyParams>().open_policy,
  });
  return { body: ok('OPA rules has been updated on org level') };
}

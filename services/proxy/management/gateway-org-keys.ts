import type { OrgSession } from '../../../contracts/keys/org-sessions';
import { isGwError } from '../../../lib/errors';
import { HttpProblem } from '../../../lib/http/problem';
import type { Route, RouteContext } from '../../../lib/http/surface';
import type { GatewayView } from './gateway';

type Admin = 'gateway-admin';

/**
 * Organisation sessions on the gateway management API (`/gw/org/keys`), keyed by organisation
 * id, with the reference gateway's statuses and messages. As there, the read and delete routes
 * answer 404 when this node serves no API at all; a write is stored whether or not an API of the
 * organisation is loaded (the reference's default organisation store).
 */
export function gatewayOrgKeyRoutes(view: Pick<GatewayView, 'loadedApis'>): Array<Route<Admin>> {
  const noApis = () => view.loadedApis().length === 0;
  const save =
    (action: 'added' | 'modified') =>
    async ({ params, query, body, call }: RouteContext<Admin>) => {
      let session: OrgSession;
      try {
        session = body<OrgSession>();
      } catch {
        throw new HttpProblem(400, 'Request malformed');
      }
      await call('keys.orgSessions.save', { org_id: params.keyID, session, reset_quota: query.reset_quota === '1' });
      return { body: { key: params.keyID, status: 'ok', action } };
    };
  return [
    {
      method: 'get',
      path: '/org/keys',
      handle: async ({ query, call }) => {
        if (noApis()) throw new HttpProblem(404, 'ORG not found');
        const filter = typeof query.filter === 'string' ? query.filter : undefined;
        return { body: await call('keys.orgSessions.list', { filter }) };
      },
    },
    {
      method: 'get',
      path: '/org/keys/:keyID',
      handle: async ({ params, call }) => {
        if (noApis()) throw new HttpProblem(404, 'Org not found');
        return { body: await call('keys.orgSessions.get', { org_id: params.keyID }) };
      },
    },
    { method: 'post', path: '/org/keys/:keyID', handle: save('added') },
    { method: 'put', path: '/org/keys/:keyID', handle: save('modified') },
    {
      method: 'delete',
      path: '/org/keys/:keyID',
      handle: async ({ params, call }) => {
        if (noApis()) throw new HttpProblem(404, 'Org not found');
        try {
          await call('keys.orgSessions.remove', { org_id: params.keyID });
        } catch (err) {
          // the reference's answer when there was nothing to remove
          if (isGwError(err, 'GW_ERR_KEYS_ORG_SESSION_NOT_FOUND'))
            throw new HttpProblem(400, 'Failed to remove the key');
          throw err;
        }
        return { body: { key: params.keyID, status: 'ok', action: 'deleted' } };
      },
    },
  ];
}

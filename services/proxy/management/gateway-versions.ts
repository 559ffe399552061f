import { HttpProblem } from '../../../lib/http/problem';
import type { Route } from '../../../lib/http/surface';
import { listVersions } from '../lib/version-metas';
import type { GatewayView } from './gateway';

/**
 * The versions of a versioned API (`GET /gw/apis/{id}/versions`, and the same list under
 * `/gw/apis/oas/{id}/versions`), from the definitions this node serves: `{status: "success",
 * apis: [...]}`, filtered by `searchText` (part of the version name) and `accessType`
 * (`internal` or `external`).
 */
export function gatewayVersionRoutes(view: GatewayView): Array<Route<'gateway-admin'>> {
  const handle: Route<'gateway-admin'>['handle'] = async ({ params, query }) => {
    const loaded = view.loadedApis();
    const served = (apiId: string) => loaded.find((api) => api.api_id === apiId);
    const base = served(params.id);
    if (!base) throw new HttpProblem(404, 'API not found');
    const text = (name: string) => (typeof query[name] === 'string' ? query[name] : '');
    const apis = listVersions(base, served, { searchText: text('searchText'), accessType: text('accessType') });
    // null when nothing is left, as the reference answers (the document marks it nullable)
    return { body: { status: 'success', apis: apis.length > 0 ? apis : null } };
  };
  return [
    { method: 'get', path: '/apis/oas/:id/versions', handle },
    { method: 'get', path: '/apis/:id/versions', handle },
  ];
}

import type { ApiRecord } from '../../../contracts/apis/api-definition';
import type { Call } from '../../../lib/bus/call';
import { HttpProblem } from '../../../lib/http/problem';
import type { Route } from '../../../lib/http/surface';
import { createVersion, newVersionQuery } from '../../../lib/openapi/oas-versions';
import type { GatewayView } from './gateway';
import { oasOverrides } from './oas-overrides';

/**
 * `POST /gw/apis/oas/import`: a plain OpenAPI document (no `x-gw-api-gateway`) becomes an API,
 * its gateway settings built by the `apis` service from the document and the query options
 * (upstreamURL, listenPath, customDomain, allowList, validateRequest, mockResponse,
 * authentication, apiID); `base_api_id` and `new_version_name` make it a version of that API.
 */
export function gatewayOasImportRoutes(view: GatewayView): Array<Route<'gateway-admin'>> {
  return [
    {
      method: 'post',
      path: '/apis/oas/import',
      handle: async ({ query, rawBody, call }) => {
        const overrides = oasOverrides(query);
        const apiId = typeof query.apiID === 'string' && query.apiID.trim() !== '' ? query.apiID.trim() : undefined;
        const create = () =>
          call('apis.importOas', {
            document_text: rawBody(),
            ...(overrides ? { overrides } : {}),
            ...(apiId ? { api_id: apiId } : {}),
          });
        const created = await createMaybeVersion(view, call, query, create);
        return { body: { key: created.api_definition.api_id, status: 'ok', action: 'added' } };
      },
    },
  ];
}

/**
 * Creates the API, as a new version of `base_api_id` when the query names one, and serves what
 * changed at once. The version checks and their statuses are the reference gateway's: no
 * `new_version_name` is 422, a base this node does not serve or one with no version name of
 * its own (and none given) is 400.
 */
export async function createMaybeVersion(
  view: GatewayView,
  call: Call,
  query: Record<string, unknown>,
  create: () => Promise<ApiRecord>,
): Promise<ApiRecord> {
  const text = (name: string) => (typeof query[name] === 'string' ? query[name].trim() : '');
  const baseId = text('base_api_id');
  if (baseId === '') {
    const created = await create();
    await view.applyLocally(created.api_definition);
    return created;
  }
  if (text('new_version_name') === '') throw new HttpProblem(422, 'The new version name is required');
  const base = view.loadedApis().find((api) => api.api_id === baseId);
  if (!base) throw new HttpProblem(400, `${baseId} is not a valid Base API version`);
  const ownName = (base.definition as { name?: unknown } | undefined)?.name;
  if (text('base_api_version_name') === '' && (typeof ownName !== 'string' || ownName === ''))
    throw new HttpProblem(400, `you need to provide a version name for the new Base API: ${baseId}`);
  const { created, base: updated } = await createVersion(call, undefined, newVersionQuery(query)!, create);
  await view.applyLocally(created.api_definition);
  await view.applyLocally(updated.api_definition);
  return created;
}

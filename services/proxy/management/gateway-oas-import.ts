import type { ApiRecord } from '../../../contracts/apis/api-definition';
import type { Call } from '../../../lib/bus/call';
import type { Route } from '../../../lib/http/surface';
import { createVersion } from '../../../lib/openapi/oas-versions';
import type { GatewayView } from './gateway';
import { oasOverrides } from './oas-overrides';
import { versionToCreate } from './version-query';

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
 * Creates the API, as a new version of `base_api_id` when the query names one (checked by
 * `versionToCreate`), and serves what changed at once.
 */
export async function createMaybeVersion(
  view: GatewayView,
  call: Call,
  query: Record<string, unknown>,
  create: () => Promise<ApiRecord>,
): Promise<ApiRecord> {
  const asVersion = versionToCreate(view.loadedApis(), query);
  if (!asVersion) {
    const created = await create();
    await view.applyLocally(created.api_definition);
    return created;
  }
  const { created, base: updated } = await createVersion(call, undefined, asVersion.version, create);
  await view.applyLocally(created.api_definition);
  await view.applyLocally(updated.api_definition);
  return created;
}

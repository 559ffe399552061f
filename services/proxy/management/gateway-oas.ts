import { isGwError } from '../../../lib/errors';
import { HttpProblem } from '../../../lib/http/problem';
import type { Route } from '../../../lib/http/surface';
import { documentDownload, documentReply, publicView } from '../../../lib/openapi/document-format';
import { refreshBasesOf } from './classic-versions';
import type { GatewayView } from './gateway';
import { createMaybeVersion } from './gateway-oas-import';
import { oasOverrides } from './oas-overrides';

/**
 * API definitions in OAS form on the gateway management API (`/gw/apis/oas`), answered as the
 * reference gateway does (`{key, status, action}` for writes, the documents themselves for
 * reads). The `apis` service keeps the documents; this node serves the classic definition
 * compiled from each, at once after a write.
 */
export function gatewayOasRoutes(view: GatewayView): Array<Route<'gateway-admin'>> {
  return [
    {
      method: 'get',
      path: '/apis/oas',
      handle: async ({ query, call }) => ({
        body: (await call('apis.listOas', { page: 0 })).apis.map((document) => publicView(document, query)),
      }),
    },
    {
      method: 'post',
      path: '/apis/oas',
      handle: async ({ query, rawBody, call }) => {
        const create = () => call('apis.createOas', { document_text: rawBody() });
        const created = await createMaybeVersion(view, call, query, create);
        return { body: { key: created.api_definition.api_id, status: 'ok', action: 'added' } };
      },
    },
    {
      // Before /apis/oas/:id, which would take `export` for an id.
      method: 'get',
      path: '/apis/oas/export',
      handle: async ({ query, headers, call }) => {
        const { apis } = await call('apis.listOas', { page: 0 });
        return documentDownload(apis, undefined, query, headers);
      },
    },
    {
      method: 'get',
      path: '/apis/oas/:id/export',
      handle: async ({ params, query, headers, call }) =>
        documentDownload(await referenceErrors(call('apis.getOas', { id: params.id })), params.id, query, headers),
    },
    {
      method: 'get',
      path: '/apis/oas/:id',
      handle: async ({ params, query, headers, call }) =>
        documentReply(await referenceErrors(call('apis.getOas', { id: params.id })), query, headers),
    },
    {
      method: 'put',
      path: '/apis/oas/:id',
      handle: async ({ params, rawBody, call }) => {
        const updated = await call('apis.updateOas', { id: params.id, document_text: rawBody(), keep_api_id: true });
        await view.applyLocally(updated.api_definition);
        return { body: { key: updated.api_definition.api_id, status: 'ok', action: 'modified' } };
      },
    },
    {
      method: 'patch',
      path: '/apis/oas/:id',
      handle: async ({ params, query, rawBody, call }) => {
        const overrides = oasOverrides(query);
        const request = { id: params.id, document_text: rawBody(), ...(overrides ? { overrides } : {}) };
        const patched = await referenceErrors(call('apis.patchOas', request));
        await view.applyLocally(patched.api_definition);
        return { body: { key: patched.api_definition.api_id, status: 'ok', action: 'modified' } };
      },
    },
    {
      method: 'delete',
      path: '/apis/oas/:id',
      handle: async ({ params, call }) => {
        const removed = await call('apis.remove', { id: params.id });
        await view.forgetLocally(removed.id);
        await refreshBasesOf(view, call, removed.api_id);
        return { body: { key: removed.api_id, status: 'ok', action: 'deleted' } };
      },
    },
  ];
}

/**
 * The reference gateway's words for an id that names no API, or a classic one, on the OAS
 * routes (the `apis` service's own messages point at the dashboard's routes).
 */
async function referenceErrors<T>(pending: Promise<T>): Promise<T> {
  try {
    return await pending;
  } catch (err) {
    if (isGwError(err, 'GW_ERR_APIS_NOT_FOUND')) throw new HttpProblem(404, 'API not found');
    if (isGwError(err, 'GW_ERR_APIS_NOT_OAS'))
      throw new HttpProblem(400, 'the requested API definition is in gw classic format, please use old api endpoint');
    throw err;
  }
}

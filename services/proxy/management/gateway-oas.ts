import type { Route } from '../../../lib/http/surface';
import type { OasPatchOverrides } from '../../../contracts/apis/actions';
import { documentDownload, documentReply, publicView } from '../../../lib/openapi/document-format';
import type { GatewayView } from './gateway';

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
      handle: async ({ rawBody, call }) => {
        const created = await call('apis.createOas', { document_text: rawBody() });
        await view.applyLocally(created.api_definition);
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
        documentDownload(await call('apis.exportOas', { id: params.id }), params.id, query, headers),
    },
    {
      method: 'get',
      path: '/apis/oas/:id',
      handle: async ({ params, query, headers, call }) =>
        documentReply(await call('apis.getOas', { id: params.id }), query, headers),
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
        const overrides = patchOverrides(query);
        const request = { id: params.id, document_text: rawBody(), ...(overrides ? { overrides } : {}) };
        const patched = await call('apis.patchOas', request);
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
        return { body: { key: removed.api_id, status: 'ok', action: 'deleted' } };
      },
    },
  ];
}

/**
 * The reference gateway's import options as query parameters: upstreamURL, listenPath and
 * customDomain (trimmed, empty ignored); allowList, validateRequest, mockResponse and
 * authentication as Go's strconv.ParseBool reads them (anything else ignored).
 */
function patchOverrides(query: Record<string, unknown>): OasPatchOverrides | undefined {
  const text = (name: string) => (typeof query[name] === 'string' ? query[name].trim() : '');
  const flag = (name: string) => {
    const value = text(name);
    if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
    if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
    return undefined;
  };
  const overrides: OasPatchOverrides = {};
  for (const name of ['upstreamURL', 'listenPath', 'customDomain'] as const) {
    if (text(name)) overrides[name] = text(name);
  }
  for (const name of ['allowList', 'validateRequest', 'mockResponse', 'authentication'] as const) {
    const value = flag(name);
    if (value !== undefined) overrides[name] = value;
  }
  return Object.keys(overrides).length > 0 ? overrides : undefined;
}

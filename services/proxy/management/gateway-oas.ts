import type { Route } from '../../../lib/http/surface';
import { documentReply, publicView } from '../../../lib/openapi/document-format';
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
      handle: async ({ query, call }) => ({ body: (await call('apis.listOas', { page: 0 })).apis.map((document) => publicView(document, query)) }),
    },
    {
      method: 'post',
      path: '/apis/oas',
      handle: async ({ rawBody, call }) => {
        const created = await call('apis.createOas', { document_text: rawBody() });
        view.applyLocally(created.api_definition);
        return { body: { key: created.api_definition.api_id, status: 'ok', action: 'added' } };
      },
    },
    {
      method: 'get',
      path: '/apis/oas/:id/export',
      handle: async ({ params, query, headers, call }) => documentReply(await call('apis.exportOas', { id: params.id }), query, headers),
    },
    {
      method: 'get',
      path: '/apis/oas/:id',
      handle: async ({ params, query, headers, call }) => documentReply(await call('apis.getOas', { id: params.id }), query, headers),
    },
    {
      method: 'put',
      path: '/apis/oas/:id',
      handle: async ({ params, rawBody, call }) => {
        const updated = await call('apis.updateOas', { id: params.id, document_text: rawBody(), keep_api_id: true });
        view.applyLocally(updated.api_definition);
        return { body: { key: updated.api_definition.api_id, status: 'ok', action: 'modified' } };
      },
    },
    {
      method: 'delete',
      path: '/apis/oas/:id',
      handle: async ({ params, call }) => {
        const removed = await call('apis.remove', { id: params.id });
        view.forgetLocally(removed.id);
        return { body: { key: removed.api_id, status: 'ok', action: 'deleted' } };
      },
    },
  ];
}

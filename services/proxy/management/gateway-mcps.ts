import type { Route } from '../../../lib/http/surface';
import { queryFlag } from '../../../lib/http/query-flag';
import type { GatewayView } from './gateway';

/**
 * MCP APIs on the gateway management API (`/gw/mcps`), answered as the reference gateway answers
 * `/tyk/mcps`: documents for reads, `{key, status, action}` for writes, the checked document for
 * `dryRun=true` (nothing stored). They are kept apart from `/gw/apis/oas`, which neither lists
 * nor writes them.
 */
export function gatewayMcpRoutes(view: GatewayView): Array<Route<'gateway-admin'>> {
  return [
    {
      method: 'get',
      path: '/mcps',
      handle: async ({ call }) => ({ body: (await call('apis.listMcp', { page: 0 })).apis }),
    },
    {
      method: 'post',
      path: '/mcps',
      handle: async ({ query, rawBody, call }) => {
        const dryRun = queryFlag(query, 'dryRun');
        const expand = queryFlag(query, 'expand');
        const written = await call('apis.createMcp', { document_text: rawBody(), dry_run: dryRun, expand });
        if (!written.api_definition) return { body: written.document };
        await view.applyLocally(written.api_definition);
        return { body: { key: written.api_definition.api_id, status: 'ok', action: 'added' } };
      },
    },
    {
      method: 'get',
      path: '/mcps/:id',
      handle: async ({ params, query, call }) => ({
        body: await call('apis.getMcp', { id: params.id, expand: queryFlag(query, 'expand') }),
      }),
    },
    {
      method: 'put',
      path: '/mcps/:id',
      handle: async ({ params, query, rawBody, call }) => {
        const dryRun = queryFlag(query, 'dryRun');
        const request = { id: params.id, document_text: rawBody(), keep_api_id: true, dry_run: dryRun };
        const written = await call('apis.updateMcp', request);
        if (!written.api_definition) return { body: written.document };
        await view.applyLocally(written.api_definition);
        return { body: { key: written.api_definition.api_id, status: 'ok', action: 'modified' } };
      },
    },
    {
      method: 'delete',
      path: '/mcps/:id',
      handle: async ({ params, call }) => {
        const removed = await call('apis.removeMcp', { id: params.id });
        await view.forgetLocally(removed.id);
        return { body: { key: removed.api_id, status: 'ok', action: 'deleted' } };
      },
    },
  ];
}

import type { Caller } from '../../../contracts/users/actions';
import { ok } from '../../../lib/http/envelope';
import { queryFlag } from '../../../lib/http/query-flag';
import type { Route } from '../../../lib/http/surface';
import { pageFromQuery } from '../lib/page-param';

const read = { name: 'apis', level: 'read' } as const;
const write = { name: 'apis', level: 'write' } as const;

/**
 * MCP APIs on the dashboard API (`/api/mcps`), in the caller's organisation only, answered as
 * `/api/apis/oas` answers (the `{Status, Message, Meta}` envelope for writes, documents for
 * reads); `dryRun=true` answers the checked document and stores nothing.
 */
export const dashboardMcpRoutes: Array<Route<Caller>> = [
  {
    method: 'get',
    path: '/mcps',
    permission: read,
    handle: async ({ caller, query, call }) => ({
      body: await call('apis.listMcp', { org_scope: caller.org_id, page: pageFromQuery(query) }),
    }),
  },
  {
    method: 'post',
    path: '/mcps',
    permission: write,
    anyBodyType: true,
    handle: async ({ caller, query, rawBody, call }) => {
      const written = await call('apis.createMcp', {
        org_scope: caller.org_id,
        document_text: rawBody(),
        generate_ids: true,
        dry_run: queryFlag(query, 'dryRun'),
        expand: queryFlag(query, 'expand'),
      });
      if (!written.api_definition) return { body: written.document };
      return { body: ok('API created', written.api_definition.id, { ID: written.api_definition.api_id }) };
    },
  },
  {
    method: 'get',
    path: '/mcps/:id',
    permission: read,
    handle: async ({ caller, params, query, call }) => ({
      body: await call('apis.getMcp', { id: params.id, org_scope: caller.org_id, expand: queryFlag(query, 'expand') }),
    }),
  },
  {
    method: 'put',
    path: '/mcps/:id',
    permission: write,
    anyBodyType: true,
    handle: async ({ caller, params, query, rawBody, call }) => {
      const written = await call('apis.updateMcp', {
        id: params.id,
        org_scope: caller.org_id,
        document_text: rawBody(),
        dry_run: queryFlag(query, 'dryRun'),
      });
      if (!written.api_definition) return { body: written.document };
      return { body: ok('API updated.') };
    },
  },
  {
    method: 'delete',
    path: '/mcps/:id',
    permission: write,
    handle: async ({ caller, params, call }) => {
      await call('apis.removeMcp', { id: params.id, org_scope: caller.org_id });
      return { body: ok('API deleted') };
    },
  },
];

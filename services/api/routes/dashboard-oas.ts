import type { Caller } from '../../../contracts/users/actions';
import { ok } from '../../../lib/http/envelope';
import type { Route } from '../../../lib/http/surface';
import { documentReply, publicView } from '../../../lib/openapi/document-format';
import { pageFromQuery } from '../lib/page-param';
import { createVersion, newVersionQuery } from '../../../lib/openapi/oas-versions';

const read = { name: 'apis', level: 'read' } as const;
const write = { name: 'apis', level: 'write' } as const;

/**
 * API definitions in OAS form (`/api/apis/oas`), as the reference dashboard serves them: the
 * body is an OpenAPI 3.0 document carrying `x-gw-api-gateway`, JSON or YAML. Listed before the
 * classic `/apis/:id` routes, which would otherwise take `oas` for an id.
 */
export const dashboardOasRoutes: Array<Route<Caller>> = [
  {
    method: 'get',
    path: '/apis/oas',
    permission: read,
    handle: async ({ caller, query, call }) => {
      const { apis, pages } = await call('apis.listOas', { org_scope: caller.org_id, page: pageFromQuery(query) });
      return { body: { apis: apis.map((document) => publicView(document, query)), pages } };
    },
  },
  {
    method: 'post',
    path: '/apis/oas',
    permission: write,
    anyBodyType: true,
    handle: async ({ caller, rawBody, query, call }) => {
      // `?base_api_id=…&new_version_name=…`: the document is a new version of that base API
      const version = newVersionQuery(query);
      const create = () =>
        call('apis.createOas', { org_scope: caller.org_id, document_text: rawBody(), generate_ids: true });
      const created = version ? (await createVersion(call, caller.org_id, version, create)).created : await create();
      return { body: ok('API created', created.api_definition.id, { ID: created.api_definition.api_id }) };
    },
  },
  {
    method: 'get',
    path: '/apis/oas/:id/export',
    permission: read,
    handle: async ({ caller, params, query, headers, call }) =>
      documentReply(await call('apis.exportOas', { id: params.id, org_scope: caller.org_id }), query, headers),
  },
  {
    method: 'get',
    path: '/apis/oas/:id',
    permission: read,
    handle: async ({ caller, params, query, headers, call }) =>
      documentReply(await call('apis.getOas', { id: params.id, org_scope: caller.org_id }), query, headers),
  },
  {
    method: 'put',
    path: '/apis/oas/:id',
    permission: write,
    anyBodyType: true,
    handle: async ({ caller, params, rawBody, call }) => {
      await call('apis.updateOas', { id: params.id, org_scope: caller.org_id, document_text: rawBody() });
      // The reference dashboard's words for it, full stop included.
      return { body: ok('API updated.') };
    },
  },
  {
    method: 'delete',
    path: '/apis/oas/:id',
    permission: write,
    handle: async ({ caller, params, call }) => {
      await call('apis.remove', { id: params.id, org_scope: caller.org_id });
      return { body: ok('API deleted') };
    },
  },
];

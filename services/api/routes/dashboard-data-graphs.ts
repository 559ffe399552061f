import type { Caller } from '../../../contracts/users/actions';
import { ok } from '../../../lib/http/envelope';
import type { Route } from '../../../lib/http/surface';
import { headerValue } from '../../../lib/http/credentials';

/**
 * Data-source imports (docs/graphql.md#importing-openapi-and-asyncapi-documents): an OpenAPI or
 * AsyncAPI document, sent or named by URL, becomes a combined-graph API. Creating an API, so the
 * same permission.
 */
export const dashboardDataGraphRoutes: Array<Route<Caller>> = [
  {
    method: 'post',
    path: '/data-graphs/data-sources/import',
    permission: { name: 'apis', level: 'write' },
    anyBodyType: true,
    handle: async ({ caller, headers, rawBody, call }) => {
      const created = await call('apis.importDataSource', {
        org_scope: caller.org_id,
        content_type: headerValue(headers['content-type']) ?? '',
        body: rawBody(),
      });
      return { body: ok('Data source imported', created.api_definition.id, { ID: created.api_definition.api_id }) };
    },
  },
];

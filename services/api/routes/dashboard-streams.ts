import type { Caller } from '../../../contracts/users/actions';
import { ok } from '../../../lib/http/envelope';
import { HttpProblem } from '../../../lib/http/problem';
import type { Route } from '../../../lib/http/surface';
import { documentReply, publicView } from '../../../lib/openapi/document-format';
import { pageFromQuery } from '../lib/page-param';

const read = { name: 'apis', level: 'read' } as const;
const write = { name: 'apis', level: 'write' } as const;

/** The content type of a streams API definition, as the reference dashboard requires it. */
export const STREAMS_CONTENT_TYPE = 'application/vnd.gw.streams.oas';

function requireStreamsType(headers: Record<string, string | string[] | undefined>): void {
  const type = String(headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  if (type !== STREAMS_CONTENT_TYPE)
    throw new HttpProblem(
      400,
      `Content-Type must be ${STREAMS_CONTENT_TYPE} for a streams API definition (got '${type || 'none'}')`,
    );
}

/**
 * Streams APIs (`/api/apis/streams`): OAS documents carrying `x-gw-streaming` beside
 * `x-gw-api-gateway`, sent with Content-Type `application/vnd.gw.streams.oas`. They are OAS
 * APIs like any other (the same store and events); these routes insist on the streams. Listed
 * before the classic `/apis/:id` routes, which would otherwise take `streams` for an id.
 */
export const dashboardStreamsRoutes: Array<Route<Caller>> = [
  {
    // The organisation's streams APIs, newest first, paged like `/api/apis/oas` (`?p=`).
    method: 'get',
    path: '/apis/streams',
    permission: read,
    handle: async ({ caller, query, call }) => {
      const { apis, pages } = await call('apis.listOas', {
        org_scope: caller.org_id,
        page: pageFromQuery(query),
        streams: true,
      });
      return { body: { apis: apis.map((document) => publicView(document, query)), pages } };
    },
  },
  {
    method: 'post',
    path: '/apis/streams',
    permission: write,
    anyBodyType: true,
    handle: async ({ caller, headers, rawBody, call }) => {
      requireStreamsType(headers);
      const created = await call('apis.createOas', {
        org_scope: caller.org_id,
        document_text: rawBody(),
        generate_ids: true,
        streams: true,
      });
      return { body: ok('API created', created.api_definition.id, { ID: created.api_definition.api_id }) };
    },
  },
  {
    method: 'get',
    path: '/apis/streams/:id/stats',
    permission: read,
    handle: async ({ caller, params, call }) => {
      const document = await call('apis.getOas', { id: params.id, org_scope: caller.org_id, streams: true });
      const apiId = String(
        (document['x-gw-api-gateway'] as { info?: { id?: unknown } } | undefined)?.info?.id ?? params.id,
      );
      // No gateway node running streams (they are all down): nothing runs, nothing to count.
      const stats = await call('streams.stats', { api_id: apiId }).catch((err: Error & { type?: string }) =>
        err?.type === 'SERVICE_NOT_FOUND' ? { streams: {}, nodes: [] } : Promise.reject(err),
      );
      return { body: stats };
    },
  },
  {
    method: 'get',
    path: '/apis/streams/:id',
    permission: read,
    handle: async ({ caller, params, query, headers, call }) =>
      documentReply(
        await call('apis.getOas', { id: params.id, org_scope: caller.org_id, streams: true }),
        query,
        headers,
      ),
  },
  {
    method: 'put',
    path: '/apis/streams/:id',
    permission: write,
    anyBodyType: true,
    handle: async ({ caller, params, headers, rawBody, call }) => {
      requireStreamsType(headers);
      const updated = await call('apis.updateOas', {
        id: params.id,
        org_scope: caller.org_id,
        document_text: rawBody(),
        streams: true,
      });
      return { body: ok('API updated', updated.api_definition.id) };
    },
  },
  {
    method: 'delete',
    path: '/apis/streams/:id',
    permission: write,
    handle: async ({ caller, params, call }) => {
      await call('apis.getOas', { id: params.id, org_scope: caller.org_id, streams: true });
      await call('apis.remove', { id: params.id, org_scope: caller.org_id });
      return { body: ok('API deleted') };
    },
  },
];

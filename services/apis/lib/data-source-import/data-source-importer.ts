import type { ApiRecord } from '../../../../contracts/apis/api-definition';
import type { ApisCreateParams, ApisImportDataSourceParams } from '../../../../contracts/apis/actions';
import { isGwError } from '../../../../lib/errors';
import { newPublicId } from '../../../../lib/ids';
import { graphDefinition } from './graph-definition';
import { slug } from './graphql-names';
import { generateGraph, importSourceOf } from './import-source';

/**
 * `POST /api/data-graphs/data-sources/import`: turns an OpenAPI or AsyncAPI document into a
 * combined-graph API of the caller's organisation, created like any other API (same checks,
 * same change event). The listen path is the document title's slug, or, when another API holds
 * it, the slug with the new API's id.
 */
export async function importDataSource(
  params: ApisImportDataSourceParams,
  create: (params: ApisCreateParams) => Promise<ApiRecord>,
  generate: typeof generateGraph = generateGraph,
): Promise<ApiRecord> {
  const graph = await generate(importSourceOf(params.content_type, params.body));
  const apiId = newPublicId();
  const listenPath = `/${slug(graph.title)}/`;
  try {
    return await create({ org_scope: params.org_scope, api_definition: graphDefinition(graph, apiId, listenPath) });
  } catch (err) {
    if (!isGwError(err, 'GW_ERR_APIS_LISTEN_PATH_TAKEN') && !isGwError(err, 'GW_ERR_APIS_LISTEN_PATH_OVERLAP'))
      throw err;
    const ownPath = `/${slug(graph.title)}-${apiId.slice(0, 8)}/`;
    return create({ org_scope: params.org_scope, api_definition: graphDefinition(graph, apiId, ownPath) });
  }
}

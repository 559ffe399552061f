import { GwError } from '../../lib/errors';

/** Errors of the `apis` service (statuses and messages follow the reference dashboard). */
export const ApisErrors = {
  notFound: (id: string) => new GwError('GW_ERR_APIS_NOT_FOUND', 404, `API not found: ${id}`, { id }),
  listenPathTaken: (listenPath: string, holder: { name: string; api_id: string }) =>
    new GwError(
      'GW_ERR_APIS_LISTEN_PATH_TAKEN',
      400,
      `Listen path ${listenPath} is already used by API '${holder.name}' (api_id ${holder.api_id})`,
      { listen_path: listenPath, api_id: holder.api_id },
    ),
  // Says nothing of the other API: its name, id and organisation are not the caller's to know.
  listenPathOverlaps: (listenPath: string) =>
    new GwError(
      'GW_ERR_APIS_LISTEN_PATH_OVERLAP',
      400,
      `Listen path ${listenPath} overlaps a listen path of another organisation on the same domain; choose another listen path or set a domain of your own`,
      { listen_path: listenPath },
    ),
  idTaken: (apiId: string) => new GwError('GW_ERR_APIS_ID_TAKEN', 400, `API with this ID already exists: ${apiId}`, { api_id: apiId }),
  idMismatch: (pathId: string, bodyId: string) =>
    new GwError('GW_ERR_APIS_ID_MISMATCH', 400, `Request API id '${pathId}' does not match the api_id '${bodyId}' in the definition; for updates these must match`, {
      id: pathId,
      api_id: bodyId,
    }),
  wrongOrg: (orgId: string) =>
    new GwError('GW_ERR_APIS_WRONG_ORG', 400, `org_id '${orgId}' is not your organisation; leave it out or send your own`, { org_id: orgId }),
  invalid: (message: string) => new GwError('GW_ERR_APIS_INVALID', 400, message),
  /** An OAS definition that breaks a rule: one entry per problem, each led by the JSON pointer of the bad field. */
  invalidOas: (problems: string[]) => new GwError('GW_ERR_APIS_INVALID_OAS', 400, `Invalid OAS API definition: ${problems[0]}`, { errors: problems }),
  notOas: (id: string) => new GwError('GW_ERR_APIS_NOT_OAS', 400, `API ${id} is a classic API definition: read and update it with /api/apis/${id}, or export it as OAS with /api/apis/oas/${id}/export`, { id }),
  isOas: (id: string) => new GwError('GW_ERR_APIS_IS_OAS', 400, `API ${id} is an OAS API definition: update it with PUT /api/apis/oas/${id}`, { id }),
  invalidSchema: (problems: string[]) => new GwError('GW_ERR_APIS_INVALID', 400, 'Invalid GraphQL schema', { errors: problems }),
  idInUse: (apiId: string, requested: string) =>
    new GwError(
      'GW_ERR_APIS_ID_IN_USE',
      400,
      `api_id ${apiId} can not be changed to ${requested}: keys or policies grant access to it; create a new API instead`,
      { api_id: apiId, requested },
    ),
  /** A supergraph that does not compose (SPEC.md "Federation rules"): every error, so the author fixes them at once. */
  federationFailed: (supergraph: string, problems: string[]) =>
    new GwError('GW_ERR_APIS_FEDERATION', 400, `Federation failed: the subgraphs of supergraph '${supergraph}' do not compose (${problems.length} error${problems.length === 1 ? '' : 's'})`, { errors: problems }),
  subgraphInUse: (subgraph: string, supergraphs: string[]) =>
    new GwError(
      'GW_ERR_APIS_SUBGRAPH_IN_USE',
      400,
      `API '${subgraph}' is a subgraph of supergraph ${supergraphs.map((name) => `'${name}'`).join(', ')}; remove it from the supergraph first`,
      { supergraphs },
    ),
  upstreamUnreachable: (url: string, reason: string) => new GwError('GW_ERR_APIS_UPSTREAM', 502, `Could not reach the GraphQL upstream ${url}: ${reason}`, { url }),
};

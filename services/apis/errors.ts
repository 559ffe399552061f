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
  idTaken: (apiId: string) =>
    new GwError('GW_ERR_APIS_ID_TAKEN', 400, `API with this ID already exists: ${apiId}`, { api_id: apiId }),
  idMismatch: (pathId: string, bodyId: string) =>
    new GwError(
      'GW_ERR_APIS_ID_MISMATCH',
      400,
      `Request API id '${pathId}' does not match the api_id '${bodyId}' in the definition; for updates these must match`,
      {
        id: pathId,
        api_id: bodyId,
      },
    ),
  wrongOrg: (orgId: string) =>
    new GwError(
      'GW_ERR_APIS_WRONG_ORG',
      400,
      `org_id '${orgId}' is not your organisation; leave it out or send your own`,
      { org_id: orgId },
    ),
  invalid: (message: string) => new GwError('GW_ERR_APIS_INVALID', 400, message),
  /** `GET /gw/schema?oasVersion=…` of a version there is no schema for (or no version at all) */
  schemaNotFound: (message: string) => new GwError('GW_ERR_APIS_SCHEMA_NOT_FOUND', 404, message),
  /** A certificate id the API's organisation does not hold (another organisation's reads the same). */
  unknownCertificate: (field: string, id: string) =>
    new GwError(
      'GW_ERR_APIS_INVALID',
      400,
      `${field}: certificate ${id} is not in the certificate store of this organisation`,
      {
        field,
        certificate_id: id,
      },
    ),
  /** An OAS definition that breaks a rule: one entry per problem, each led by the JSON pointer of the bad field. */
  invalidOas: (problems: string[]) =>
    new GwError('GW_ERR_APIS_INVALID_OAS', 400, `Invalid OAS API definition: ${problems[0]}`, { errors: problems }),
  notOas: (id: string) =>
    new GwError(
      'GW_ERR_APIS_NOT_OAS',
      400,
      `API ${id} is a classic API definition: read and update it with /api/apis/${id}, or export it as OAS with /api/apis/oas/${id}/export`,
      { id },
    ),
  isOas: (id: string) =>
    new GwError(
      'GW_ERR_APIS_IS_OAS',
      400,
      `API ${id} is an OAS API definition: update it with PUT /api/apis/oas/${id}`,
      { id },
    ),
  /** An API that is not an MCP API, read or written through the MCP routes (the reference's 404). */
  notMcp: (id: string) => new GwError('GW_ERR_APIS_NOT_MCP', 404, 'API is not an MCP API', { id }),
  /** An MCP API read or written through the OAS routes: it is kept apart, as the reference keeps it. */
  isMcp: (id: string) =>
    new GwError('GW_ERR_APIS_IS_MCP', 404, `API is not an OAS API: ${id} is an MCP API, see /mcps/${id}`, { id }),
  /** A `gw://<api_id>/mcp` upstream whose REST source can not serve as one (400, or 403 for another organisation's). */
  mcpSource: (status: 400 | 403, message: string, apiId: string) =>
    new GwError('GW_ERR_APIS_MCP_SOURCE', status, message, { rest_source: apiId }),
  /** A REST API that MCP APIs offer as tools: deleting it would leave them serving nothing (the reference's 409). */
  restSourceInUse: (mcpApis: string[]) =>
    new GwError('GW_ERR_APIS_REST_SOURCE_IN_USE', 409, `API is referenced by MCP APIs: ${mcpApis.join(', ')}`, {
      mcp_apis: mcpApis,
    }),
  invalidDataSources: (problems: string[]) =>
    new GwError('GW_ERR_APIS_INVALID', 400, `Invalid combined graph: ${problems.join('; ')}`, { errors: problems }),
  invalidSchema: (problems: string[]) =>
    new GwError('GW_ERR_APIS_INVALID', 400, 'Invalid GraphQL schema', { errors: problems }),
  idInUse: (apiId: string, requested: string) =>
    new GwError(
      'GW_ERR_APIS_ID_IN_USE',
      400,
      `api_id ${apiId} can not be changed to ${requested}: keys or policies grant access to it; create a new API instead`,
      { api_id: apiId, requested },
    ),
  /** A supergraph that does not compose: every error, so the author fixes them at once. */
  federationFailed: (supergraph: string, problems: string[]) =>
    new GwError(
      'GW_ERR_APIS_FEDERATION',
      400,
      `Federation failed: the subgraphs of supergraph '${supergraph}' do not compose (${problems.length} error${problems.length === 1 ? '' : 's'})`,
      { errors: problems },
    ),
  subgraphInUse: (subgraph: string, supergraphs: string[]) =>
    new GwError(
      'GW_ERR_APIS_SUBGRAPH_IN_USE',
      400,
      `API '${subgraph}' is a subgraph of supergraph ${supergraphs.map((name) => `'${name}'`).join(', ')}; remove it from the supergraph first`,
      { supergraphs },
    ),
  upstreamUnreachable: (url: string, reason: string) =>
    new GwError('GW_ERR_APIS_UPSTREAM', 502, `Could not reach the GraphQL upstream ${url}: ${reason}`, { url }),
  upstreamAnswerTooLarge: (url: string, maxBytes: number) =>
    new GwError(
      'GW_ERR_APIS_UPSTREAM',
      502,
      `The GraphQL upstream ${url} answered the introspection query with more than ${maxBytes} bytes`,
      { url, max_bytes: maxBytes },
    ),
  // Data-source imports: malformed 400, undetectable format an error with Meta null, network 500.
  importMalformed: (reason: string) =>
    new GwError('GW_ERR_APIS_IMPORT_MALFORMED', 400, `The document is malformed: ${reason}`),
  importUndetectable: () =>
    new GwError(
      'GW_ERR_APIS_IMPORT_FORMAT',
      400,
      'Could not detect the document format: expected an OpenAPI 3.0 document (an "openapi" field) or an AsyncAPI 2.0.0–2.4.0 document (an "asyncapi" field)',
    ),
  importInvalid: (message: string, problems?: string[]) =>
    new GwError('GW_ERR_APIS_IMPORT_INVALID', 400, message, problems ? { errors: problems } : undefined),
  importMediaType: (contentType: string) =>
    new GwError(
      'GW_ERR_APIS_IMPORT_MEDIA_TYPE',
      415,
      `Unsupported Content-Type '${contentType}': send application/json with {"url": ...}, application/vnd.gw.udg.v2.openapi or application/vnd.gw.udg.v2.asyncapi`,
    ),
  importUrlRefused: (url: string, reason: string) =>
    new GwError('GW_ERR_APIS_IMPORT_URL_REFUSED', 400, `The document URL ${url} is refused: ${reason}`, { url }),
  importFetchFailed: (url: string, reason: string) =>
    new GwError('GW_ERR_APIS_IMPORT_FETCH', 500, `Could not fetch the document at ${url}: ${reason}`, { url }),
};

import { BASE_IDENTITY_MODES, type ApiDefinition, type ApiRecord, type HookReference } from './api-definition';

/**
 * `apis.*` actions. `org_scope` limits an action to one organisation's records (the dashboard
 * passes the caller's organisation); without it the action sees every organisation (the
 * gateway management API, which is guarded by the gateway secret).
 */

const optionalBoolean = { type: 'boolean', optional: true };

/** Validator rule of an API definition as clients send it (fastest-validator syntax). */
export const apiDefinitionRule = {
  type: 'object',
  props: {
    name: { type: 'string', empty: false, trim: true },
    api_id: {
      type: 'string',
      optional: true,
      pattern: /^[A-Za-z0-9._~-]{1,128}$/,
      messages: { stringPattern: "The '{field}' field may only hold letters, digits and . _ ~ - (at most 128)." },
    },
    org_id: { type: 'string', optional: true },
    domain: { type: 'string', optional: true },
    active: optionalBoolean,
    use_keyless: optionalBoolean,
    use_oauth2: optionalBoolean,
    use_basic_auth: optionalBoolean,
    enable_signature_checking: optionalBoolean,
    use_standard_auth: optionalBoolean,
    base_identity_provided_by: { type: 'enum', optional: true, values: ['', ...BASE_IDENTITY_MODES] },
    hmac_allowed_algorithms: {
      type: 'array',
      optional: true,
      items: { type: 'enum', values: ['hmac-sha1', 'hmac-sha256', 'hmac-sha384', 'hmac-sha512', 'rsa-sha256'] },
    },
    hmac_allowed_clock_skew: { type: 'number', optional: true },
    enable_batch_request_support: optionalBoolean,
    enable_ip_whitelisting: optionalBoolean,
    enable_context_vars: optionalBoolean,
    detailed_tracing: optionalBoolean,
    disable_rate_limit: optionalBoolean,
    auth: { type: 'object', optional: true },
    definition: { type: 'object', optional: true },
    version_data: { type: 'object', optional: true },
    proxy: {
      type: 'object',
      props: {
        listen_path: {
          type: 'string',
          pattern: /^\/\S*$/,
          messages: { stringPattern: "The '{field}' field must start with '/' and hold no spaces." },
        },
        // Empty only for a combined graph, which answers from its data sources (checked at save).
        target_url: {
          type: 'string',
          // Empty only for a supergraph or a combined graph (no target of their own); serving-checks.ts refuses it elsewhere.
          pattern: /^((https?|h2c):\/\/[^\s/?#]+[^\s]*)?$/i,
          messages: { stringPattern: "The '{field}' field must be an absolute http://, https:// or h2c:// URL." },
        },
        strip_listen_path: optionalBoolean,
      },
    },
  },
} as const;

const hookReferenceRule = {
  type: 'object',
  props: {
    event_name: { type: 'string', empty: false },
    hook: { type: 'object' },
    event_timeout: { type: 'number', integer: true, optional: true },
  },
};

/** The reference gateway's import options (OasPatchOverrides), as `apis.patchOas` and `apis.importOas` take them. */
const oasOverridesRule = {
  type: 'object',
  optional: true,
  strict: 'remove',
  props: {
    upstreamURL: { type: 'string', optional: true },
    listenPath: { type: 'string', optional: true },
    customDomain: { type: 'string', optional: true },
    allowList: { type: 'boolean', optional: true },
    validateRequest: { type: 'boolean', optional: true },
    mockResponse: { type: 'boolean', optional: true },
    authentication: { type: 'boolean', optional: true },
  },
};

export const apisActionParams = {
  list: {
    org_scope: { type: 'string', optional: true },
    q: { type: 'string', optional: true },
    page: { type: 'number', integer: true, optional: true },
  },
  get: { id: { type: 'string', empty: false }, org_scope: { type: 'string', optional: true } },
  create: {
    org_scope: { type: 'string', optional: true },
    api_definition: apiDefinitionRule,
    hook_references: { type: 'array', optional: true, items: hookReferenceRule },
  },
  update: {
    id: { type: 'string', empty: false },
    org_scope: { type: 'string', optional: true },
    api_definition: apiDefinitionRule,
    hook_references: { type: 'array', optional: true, items: hookReferenceRule },
  },
  remove: { id: { type: 'string', empty: false }, org_scope: { type: 'string', optional: true } },
  createOas: {
    org_scope: { type: 'string', optional: true },
    document_text: { type: 'string' },
    generate_ids: { type: 'boolean', optional: true },
    streams: { type: 'boolean', optional: true },
  },
  updateOas: {
    id: { type: 'string', empty: false },
    org_scope: { type: 'string', optional: true },
    document_text: { type: 'string' },
    keep_api_id: { type: 'boolean', optional: true },
    streams: { type: 'boolean', optional: true },
  },
  patchOas: {
    id: { type: 'string', empty: false },
    org_scope: { type: 'string', optional: true },
    document_text: { type: 'string' },
    overrides: oasOverridesRule,
  },
  importOas: {
    org_scope: { type: 'string', optional: true },
    document_text: { type: 'string' },
    api_id: { type: 'string', optional: true },
    overrides: oasOverridesRule,
  },
  oasSchema: { oas_version: { type: 'string', optional: true } },
  getOas: {
    id: { type: 'string', empty: false },
    org_scope: { type: 'string', optional: true },
    streams: { type: 'boolean', optional: true },
  },
  compileOas: { document_text: { type: 'string' } },
  exportOas: { id: { type: 'string', empty: false }, org_scope: { type: 'string', optional: true } },
  listOas: {
    org_scope: { type: 'string', optional: true },
    page: { type: 'number', integer: true, optional: true },
    streams: { type: 'boolean', optional: true },
  },
  createMcp: {
    org_scope: { type: 'string', optional: true },
    document_text: { type: 'string' },
    generate_ids: optionalBoolean,
    dry_run: optionalBoolean,
    expand: optionalBoolean,
  },
  updateMcp: {
    id: { type: 'string', empty: false },
    org_scope: { type: 'string', optional: true },
    document_text: { type: 'string' },
    keep_api_id: optionalBoolean,
    dry_run: optionalBoolean,
  },
  getMcp: {
    id: { type: 'string', empty: false },
    org_scope: { type: 'string', optional: true },
    expand: optionalBoolean,
  },
  listMcp: {
    org_scope: { type: 'string', optional: true },
    page: { type: 'number', integer: true, optional: true },
  },
  removeMcp: { id: { type: 'string', empty: false }, org_scope: { type: 'string', optional: true } },
  snapshot: {},
  currentRevision: {},
  importDataSource: {
    org_scope: { type: 'string', optional: true },
    content_type: { type: 'string' },
    body: { type: 'string' },
  },
  syncGraphqlSchema: {
    id: { type: 'string', empty: false },
    org_scope: { type: 'string', optional: true },
    introspection_headers: {
      type: 'record',
      optional: true,
      key: { type: 'string', empty: false },
      value: { type: 'string' },
    },
    persist_headers: { type: 'boolean', optional: true },
  },
};

export interface ApisImportDataSourceParams {
  org_scope?: string;
  /** the request's Content-Type: `application/json` (a `{url}` body) or `application/vnd.gw.udg.v2.openapi|asyncapi` */
  content_type: string;
  /** the request body as sent */
  body: string;
}

export interface ApisSyncGraphqlSchemaParams {
  id: string;
  org_scope?: string;
  /** headers for a protected upstream; the stored `graphql.proxy.auth_headers` when absent */
  introspection_headers?: Record<string, string>;
  /** keep the headers in `graphql.proxy.auth_headers` for later resynchronisation */
  persist_headers?: boolean;
}

export interface ApisListParams {
  org_scope?: string;
  /** name text to search for */
  q?: string;
  /** page number; 0 or lower = all */
  page?: number;
}
export interface ApisListResult {
  apis: ApiRecord[];
  pages: number;
}

export interface ApisGetParams {
  /** internal or public id */
  id: string;
  org_scope?: string;
  /** `apis.getOas` of a streams API (`/api/apis/streams/{id}`): an API without `x-gw-streaming` is not found */
  streams?: boolean;
}

export interface ApisCreateParams {
  org_scope?: string;
  api_definition: Partial<ApiDefinition> & Pick<ApiDefinition, 'name' | 'proxy'>;
  hook_references?: HookReference[];
}

export interface ApisUpdateParams extends ApisCreateParams {
  /** internal or public id */
  id: string;
}

export interface ApisRemoveParams {
  id: string;
  org_scope?: string;
}

/** An OpenAPI 3.0 document carrying `x-gw-api-gateway` (JSON data). */
export type OasApiDocument = Record<string, unknown>;

/**
 * `apis.createOas`: an OAS definition, as the JSON or YAML text the client sent (the `apis`
 * service reads it, so its errors can name the JSON pointer of a bad field).
 */
export interface ApisCreateOasParams {
  org_scope?: string;
  document_text: string;
  /** ignore `x-gw-api-gateway.info.id` and generate the public id (the dashboard) */
  generate_ids?: boolean;
  /** a streams API (`/api/apis/streams`): the document must carry `x-gw-streaming` */
  streams?: boolean;
}

export interface ApisUpdateOasParams {
  /** internal or public id */
  id: string;
  org_scope?: string;
  document_text: string;
  /** refuse a document whose `info.id` is not the API's public id (the gateway API: ids there must match) */
  keep_api_id?: boolean;
  /** a streams API: the document must carry `x-gw-streaming`, and so must the stored one */
  streams?: boolean;
}

/**
 * What `PATCH /gw/apis/oas/{id}` may set besides the document, as the reference gateway's query
 * parameters of the same names (its TykExtensionConfigParams); each is applied to the extension.
 */
export interface OasPatchOverrides {
  upstreamURL?: string;
  listenPath?: string;
  customDomain?: string;
  /** every operation gets `allow` switched to this */
  allowList?: boolean;
  /** every operation with parameters or a request body gets `validateRequest` switched to this */
  validateRequest?: boolean;
  /** every operation with examples gets `mockResponse` (from its examples) switched to this */
  mockResponse?: boolean;
  /** the authentication of the schemes `security` names, switched to this */
  authentication?: boolean;
}

/**
 * `apis.patchOas`: the stored document's OpenAPI part replaced by the one sent; its gateway
 * extension kept unless the document brings one; then the overrides applied.
 */
export interface ApisPatchOasParams {
  id: string;
  org_scope?: string;
  document_text: string;
  overrides?: OasPatchOverrides;
}

/**
 * `apis.importOas`: a plain OpenAPI document (no `x-gw-api-gateway`) becomes an API whose
 * gateway settings are built from the document and the overrides, as the reference gateway's
 * import does: active, listen path `/` unless given (stripped), upstream from the first server.
 */
export interface ApisImportOasParams {
  org_scope?: string;
  document_text: string;
  /** the API's public id; generated when absent */
  api_id?: string;
  overrides?: OasPatchOverrides;
}

/** `apis.oasSchema`: the JSON schema of an OAS API definition for an OpenAPI version (the default when absent). */
export interface ApisOasSchemaParams {
  oas_version?: string;
}

export interface ApisOasSchemaResult {
  schema: Record<string, unknown>;
}

export interface ApisListOasParams {
  org_scope?: string;
  /** page number; 0 or lower = all */
  page?: number;
  /** only streams APIs (`GET /api/apis/streams`) */
  streams?: boolean;
}

/** `apis.listOas`: the OAS documents of the APIs created in OAS form. */
export interface ApisListOasResult {
  apis: OasApiDocument[];
  pages: number;
}

/**
 * `apis.createMcp`: an MCP API (the `/mcps` routes), an OAS document whose upstream is an MCP
 * server (http(s)://) or a REST API of the same organisation (`gw://<api_id>/mcp`).
 */
export interface ApisCreateMcpParams {
  org_scope?: string;
  document_text: string;
  /** ignore `x-gw-api-gateway.info.id` and generate the public id (the dashboard) */
  generate_ids?: boolean;
  /** check and answer the document as it would be stored, store nothing */
  dry_run?: boolean;
  /** with dry_run: the document expanded as `apis.getMcp` expands it */
  expand?: boolean;
}

export interface ApisUpdateMcpParams {
  /** internal or public id */
  id: string;
  org_scope?: string;
  document_text: string;
  /** refuse a document whose `info.id` is not the API's public id (the gateway API) */
  keep_api_id?: boolean;
  dry_run?: boolean;
}

export interface ApisGetMcpParams {
  id: string;
  org_scope?: string;
  /** REST as MCP: the document with the full derived tool catalogue in `x-gw-mcp-server.primitives` */
  expand?: boolean;
}

/** A write of an MCP API: the document as stored (or as it would be, for a dry run). */
export interface ApisMcpWriteResult {
  document: OasApiDocument;
  /** the compiled definition the gateways serve; absent for a dry run */
  api_definition?: ApiDefinition;
}

/**
 * `apis.snapshot`: every definition of every organisation, for gateway nodes, and the store
 * revision it reflects (read in the same transaction).
 */
export interface ApisSnapshotResult {
  revision: number;
  apis: ApiDefinition[];
}

/** `apis.currentRevision` (and `keys.currentRevision`): the store's latest revision, a cheap check. */
export interface StoreRevisionResult {
  revision: number;
}

/** `apis.remove`: the internal and public id of the definition that was deleted. */
export interface ApisRemoveResult {
  id: string;
  api_id: string;
}

/** The `apis.*` actions: params and result of each (see contracts/actions.ts). */
export interface ApisActions {
  'apis.list': { params: ApisListParams; result: ApisListResult };
  'apis.get': { params: ApisGetParams; result: ApiRecord };
  'apis.create': { params: ApisCreateParams; result: ApiRecord };
  'apis.update': { params: ApisUpdateParams; result: ApiRecord };
  'apis.remove': { params: ApisRemoveParams; result: ApisRemoveResult };
  'apis.createOas': { params: ApisCreateOasParams; result: ApiRecord };
  'apis.updateOas': { params: ApisUpdateOasParams; result: ApiRecord };
  'apis.patchOas': { params: ApisPatchOasParams; result: ApiRecord };
  'apis.importOas': { params: ApisImportOasParams; result: ApiRecord };
  /** 404 GW_ERR_APIS_SCHEMA_NOT_FOUND for a version with no schema */
  'apis.oasSchema': { params: ApisOasSchemaParams; result: ApisOasSchemaResult };
  /** the stored document of an OAS API (400 for a classic one) */
  'apis.getOas': { params: ApisGetParams; result: OasApiDocument };
  /** the stored document of an OAS API, or a classic API converted to one */
  'apis.exportOas': { params: ApisGetParams; result: OasApiDocument };
  'apis.listOas': { params: ApisListOasParams; result: ApisListOasResult };
  /** checks and compiles a document without storing it (a gateway's OAS definition files) */
  'apis.compileOas': {
    params: { document_text: string };
    result: { api_definition: ApisCreateParams['api_definition'] };
  };
  'apis.createMcp': { params: ApisCreateMcpParams; result: ApisMcpWriteResult };
  'apis.updateMcp': { params: ApisUpdateMcpParams; result: ApisMcpWriteResult };
  /** the stored document of an MCP API (404 for any other API) */
  'apis.getMcp': { params: ApisGetMcpParams; result: OasApiDocument };
  'apis.listMcp': { params: ApisListParams; result: ApisListOasResult };
  /** removes an MCP API (404 for any other API) */
  'apis.removeMcp': { params: ApisRemoveParams; result: ApisRemoveResult };
  'apis.snapshot': { params: Record<string, never>; result: ApisSnapshotResult };
  'apis.currentRevision': { params: Record<string, never>; result: StoreRevisionResult };
  'apis.syncGraphqlSchema': { params: ApisSyncGraphqlSchemaParams; result: ApiRecord };
  'apis.importDataSource': { params: ApisImportDataSourceParams; result: ApiRecord };
}

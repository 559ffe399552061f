/**
 * The classic API definition, in the reference gateway's format. Only the fields gw
 * reads are typed; every other field of the reference format is kept as sent.
 */
export interface ApiDefinition {
  /** internal id, generated */
  id: string;
  /** public id, generated when absent */
  api_id: string;
  name: string;
  org_id: string;
  active: boolean;
  use_keyless?: boolean;
  /** host name the API answers on; empty = any host */
  domain?: string;
  proxy: {
    listen_path: string;
    target_url: string;
    strip_listen_path?: boolean;
    [field: string]: unknown;
  };
  /** set on APIs created through /gw/mcps: requests to the listen path are MCP (JSON-RPC 2.0) */
  mcp?: McpDefinition;
  /** with tracing on, each step of the API's chain gets a span of its own (OAS: `server.detailedTracing`) */
  detailed_tracing?: boolean;
  [field: string]: unknown;
}

/** The MCP part of a classic definition, compiled from `middleware.mcp*` and `x-gw-mcp-server`. */
export interface McpDefinition {
  /** per primitive kind, by name (tools, prompts) or URI (resources) */
  primitives: {
    tools: Record<string, McpPrimitiveRule>;
    resources: Record<string, McpPrimitiveRule>;
    prompts: Record<string, McpPrimitiveRule>;
  };
  /** REST as MCP: the api_id whose OAS operations are the tools (target_url is then gw://<id>/mcp) */
  rest_source?: string;
  /** the selected/renamed operations of x-gw-mcp-server.primitives, as stored */
  rest_primitives?: unknown[];
  /**
   * REST as MCP: the tools derived from the source's operations when the MCP API was saved
   * (lib/mcp/rest-tools.ts `RestTool`s, kept as data so a gateway node needs no OAS document)
   */
  rest_tools?: unknown[];
}

/**
 * An API's rule for one primitive. `allow`: when any primitive of a kind has it, only the allowed
 * ones of that kind pass; `block` refuses that one.
 */
export interface McpPrimitiveRule {
  allow?: boolean;
  block?: boolean;
  /** shared by every caller of the API; `per` in seconds */
  rate_limit?: { rate: number; per: number };
}

/**
 * The reference gateway's names of the client authentication modes that can provide an API's
 * session (`base_identity_provided_by`); `jwt_claim` is JWT authentication (`enable_jwt`) and
 * `oidc_user` OpenID Connect (`use_openid`).
 */
export const BASE_IDENTITY_MODES = [
  'auth_token',
  'basic_auth_user',
  'hmac_key',
  'oauth_key',
  'custom_auth',
  'jwt_claim',
  'oidc_user',
] as const;
export type IdentityMode = (typeof BASE_IDENTITY_MODES)[number];

/** A hook reference of a dashboard API record. */
export interface HookReference {
  event_name: string;
  hook: Record<string, unknown>;
  event_timeout?: number;
}

/** An API as the dashboard REST API returns it. */
export interface ApiRecord {
  api_model: Record<string, unknown>;
  api_definition: ApiDefinition;
  hook_references: HookReference[];
  is_site: boolean;
  sort_by: number;
}

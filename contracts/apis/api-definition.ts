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
  mcp?: McpSettings;
  [field: string]: unknown;
}

/** An MCP API's rules, compiled from the OAS form's `middleware.mcpTools|mcpResources|mcpPrompts`. */
export interface McpSettings {
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
}

/**
 * `allow`: when any primitive of a kind has it, only allowed ones of that kind pass (allow-list
 * mode); `block` refuses that one; `rate_limit` is shared by every caller of the API.
 */
export interface McpPrimitiveRule {
  allow?: boolean;
  block?: boolean;
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

/**
 * The session object of an access key and the policy object, in the reference gateway's
 * format. Only the fields gw reads are typed; every other field is kept as sent.
 */

export interface AccessLimit {
  rate?: number;
  per?: number;
  throttle_interval?: number;
  throttle_retry_limit?: number;
  max_query_depth?: number;
  quota_max?: number;
  quota_renews?: number;
  quota_remaining?: number;
  quota_renewal_rate?: number;
  set_by_policy?: boolean;
  smoothing?: Record<string, unknown>;
}

export interface AllowedUrl {
  url: string;
  methods: string[];
}

export interface AccessDefinition {
  api_name?: string;
  api_id: string;
  versions?: string[];
  allowed_urls?: AllowedUrl[];
  restricted_types?: Array<{ name: string; fields: string[] }>;
  allowed_types?: Array<{ name: string; fields: string[] }>;
  disable_introspection?: boolean;
  limit?: AccessLimit | null;
  field_access_rights?: Array<{ type_name: string; field_name: string; limits: { max_query_depth: number } }>;
  /**
   * The rate-limit counter this API uses for the key: '' = the key's own counter, shared by
   * every API of the key without a limit of its own; otherwise a counter of its own.
   */
  allowance_scope?: string;
  /** which MCP primitives the key may use on this API (patterns anchored ^…$; blocked wins) */
  mcp_access_rights?: McpAccessRights;
  /** per-primitive rate limits and quotas of the key on this API */
  mcp_primitives?: McpPrimitiveLimit[];
}

/** Allowed and blocked name (or URI) patterns; a non-empty `allowed` is an allow-list. */
export interface McpAccessList {
  allowed?: string[];
  blocked?: string[];
}

export interface McpAccessRights {
  tools?: McpAccessList;
  resources?: McpAccessList;
  prompts?: McpAccessList;
}

export interface McpPrimitiveLimit {
  type: 'tool' | 'resource' | 'prompt';
  name: string;
  limit: { rate: number; per: number; quota_max?: number; quota_renewal_rate?: number };
}

export interface Session {
  last_check?: number;
  allowance?: number;
  rate?: number;
  per?: number;
  /** epoch seconds; 0 or less = never */
  expires?: number;
  quota_max?: number;
  quota_renews?: number;
  quota_remaining?: number;
  quota_renewal_rate?: number;
  throttle_interval?: number;
  throttle_retry_limit?: number;
  max_query_depth?: number;
  access_rights?: Record<string, AccessDefinition>;
  apply_policies?: string[];
  org_id?: string;
  oauth_client_id?: string;
  basic_auth_data?: { password?: string; hash_type?: string };
  /**
   * Dynamic mutual TLS: the id of a certificate in the store (organisation id + SHA-256). The
   * key is then named after it and is accepted only from a client presenting that certificate,
   * on APIs with `auth_configs.authToken.use_certificate`. Set at creation, never changed.
   */
  certificate?: string;
  hmac_enabled?: boolean;
  hmac_string?: string;
  /**
   * `rsa-sha256` request signatures: the id of a certificate in the organisation's store whose
   * RSA public key checks them (the reference's `rsa_certificate_id`), with `hmac_enabled` or
   * `enable_http_signature_validation`.
   */
  rsa_certificate_id?: string;
  enable_http_signature_validation?: boolean;
  is_inactive?: boolean;
  smoothing?: Record<string, unknown>;
  tags?: string[];
  meta_data?: Record<string, unknown>;
  alias?: string;
  /** JWT one-to-one mode: the HMAC secret or PEM public key that verifies tokens naming this key */
  jwt_data?: { secret?: string };
  [field: string]: unknown;
}

export interface Policy {
  id: string;
  name: string;
  org_id: string;
  rate: number;
  per: number;
  quota_max: number;
  quota_renewal_rate: number;
  throttle_interval: number;
  throttle_retry_limit: number;
  max_query_depth: number;
  access_rights: Record<string, AccessDefinition>;
  active: boolean;
  tags: string[];
  key_expires_in?: number;
  smoothing?: Record<string, unknown>;
  [field: string]: unknown;
}

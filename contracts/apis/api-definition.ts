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
  [field: string]: unknown;
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

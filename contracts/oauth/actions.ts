import type { Session } from '../keys/session';

/**
 * `oauth.*` actions: OAuth 2.0 clients of an API, authorisation codes and issued tokens
 * (docs/authentication.md#oauth-20). `org_scope` limits an action to one
 * organisation (the dashboard passes the caller's); without it the action sees every
 * organisation (the gateway management API and the gateway's own OAuth endpoints).
 */

/** A client as the management APIs show it. `secret` is only filled in the creation result. */
export interface OAuthClient {
  client_id: string;
  secret: string;
  redirect_uri: string;
  policy_id: string;
  api_id: string;
  description: string;
  meta_data: Record<string, unknown>;
}

/** What the oauth service needs to know of an OAuth API (`use_oauth2`). */
export interface OAuthApiSettings {
  api_id: string;
  org_id: string;
  name: string;
  oauth_meta?: {
    allowed_access_types?: string[];
    allowed_authorize_types?: string[];
    auth_login_redirect?: string;
    /** every authorisation code flow must use PKCE (RFC 7636); @default false */
    require_pkce?: boolean;
  };
  notifications?: { shared_secret?: string; oauth_on_keychange_url?: string };
}

/** A token listing entry: the access token (its hash when keys are hashed) and its expiry (epoch seconds). */
export interface OAuthTokenEntry {
  code: string;
  expires: number;
}

/** A successful token endpoint answer (RFC 6749 §5.1). */
export interface OAuthTokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  refresh_token?: string;
}

export type OAuthGrantType = 'authorization_code' | 'refresh_token' | 'client_credentials' | 'password';

export interface OAuthCreateClientParams {
  /** the API's public or internal id */
  api_id: string;
  redirect_uri: string;
  policy_id?: string;
  client_id?: string;
  secret?: string;
  description?: string;
  meta_data?: Record<string, unknown>;
  org_scope?: string;
}
export interface OAuthClientParams {
  api_id: string;
  client_id: string;
  org_scope?: string;
}
export interface OAuthListClientsParams {
  api_id: string;
  org_scope?: string;
  page?: number;
}
/** `oauth.updateClient`: what of a client may change (the reference's PUT); its id and secret stay. */
export interface OAuthUpdateClientParams extends OAuthClientParams {
  redirect_uri: string;
  policy_id?: string;
  description?: string;
  meta_data?: Record<string, unknown>;
}
/** `oauth.listTokensPage`: one page of a client's tokens (the reference pages by 100). */
export interface OAuthTokensPageParams extends OAuthClientParams {
  page: number;
}
export interface OAuthTokensPageResult {
  tokens: OAuthTokenEntry[];
  page_size: number;
  pages: number;
}
/** `oauth.clientApis`: the OAuth APIs a client id belongs to (one in gw: a client has one API). */
export interface OAuthClientApisParams {
  client_id: string;
  /** only an API of this organisation; absent or empty: any organisation */
  org_id?: string;
}
/** `oauth.removeRefresh`: forgets one refresh token of an API, given as issued. */
export interface OAuthRemoveRefreshParams {
  api_id: string;
  refresh_token: string;
}
export interface OAuthRevokeParams {
  client_id: string;
  token: string;
  token_type_hint?: string;
  /** when set, the client authenticates with it (the gateway's /oauth/revoke) */
  client_secret?: string;
  org_scope?: string;
}
export interface OAuthRevokeAllParams {
  client_id: string;
  client_secret: string;
  org_scope?: string;
}
export interface OAuthAuthorizeClientParams {
  /** the API's public id; absent: the client's own API (the gateway management API) */
  api_id?: string;
  response_type: string;
  client_id: string;
  redirect_uri: string;
  /** the session the issued token gets, as a JSON object text (form-encoded `key_rules`) */
  key_rules?: string;
  /** PKCE (RFC 7636) as the client sent it to /oauth/authorize; the code keeps it */
  code_challenge?: string;
  /** `S256` or `plain`; absent means `plain` */
  code_challenge_method?: string;
  org_scope?: string;
}
export interface OAuthAuthorizeClientResult {
  redirect_to: string;
  code?: string;
  access_token?: string;
  token_type?: 'bearer';
  expires_in?: number;
}
export interface OAuthCheckAuthorizeParams {
  api: OAuthApiSettings;
  client_id: string;
  redirect_uri?: string;
  response_type: string;
  code_challenge?: string;
  code_challenge_method?: string;
}
export interface OAuthTokenParams {
  api: OAuthApiSettings;
  grant_type: string;
  client_id: string;
  client_secret: string;
  code?: string;
  redirect_uri?: string;
  refresh_token?: string;
  username?: string;
  password?: string;
  /** PKCE (RFC 7636): required when the code was issued with a challenge */
  code_verifier?: string;
}

const text = { type: 'string', optional: true };
const required = { type: 'string', empty: false, max: 255 };
const scope = { type: 'string', optional: true };
const apiSettings = {
  type: 'object',
  props: {
    api_id: required,
    org_id: { type: 'string' },
    name: { type: 'string' },
    oauth_meta: { type: 'object', optional: true },
    notifications: { type: 'object', optional: true },
  },
};

export const oauthActionParams = {
  createClient: {
    api_id: required,
    redirect_uri: { type: 'string', empty: false, max: 2048 },
    policy_id: { type: 'string', optional: true, max: 64 },
    client_id: {
      type: 'string',
      optional: true,
      pattern: /^[A-Za-z0-9._-]{1,128}$/,
      messages: {
        stringPattern: "The 'client_id' field may only hold letters, digits, '.', '_' and '-' (at most 128).",
      },
    },
    secret: { type: 'string', optional: true, min: 8, max: 255 },
    description: { type: 'string', optional: true, max: 1024 },
    meta_data: { type: 'object', optional: true },
    org_scope: scope,
  },
  client: { api_id: required, client_id: required, org_scope: scope },
  listClients: { api_id: required, org_scope: scope, page: { type: 'number', integer: true, optional: true } },
  revoke: {
    client_id: required,
    token: { type: 'string', empty: false, max: 1024 },
    token_type_hint: text,
    client_secret: text,
    org_scope: scope,
  },
  revokeAll: { client_id: required, client_secret: { type: 'string' }, org_scope: scope },
  updateClient: {
    api_id: required,
    client_id: required,
    redirect_uri: { type: 'string', empty: false, max: 2048 },
    policy_id: { type: 'string', optional: true, max: 64 },
    description: { type: 'string', optional: true, max: 1024 },
    meta_data: { type: 'object', optional: true },
    org_scope: scope,
  },
  listTokensPage: {
    api_id: required,
    client_id: required,
    page: { type: 'number', integer: true, min: 1 },
    org_scope: scope,
  },
  clientApis: { client_id: required, org_id: { type: 'string', optional: true, max: 64 } },
  removeRefresh: { api_id: required, refresh_token: { type: 'string', empty: false, max: 1024 } },
  purgeLapsed: {},
  authorizeClient: {
    api_id: text,
    response_type: { type: 'string' },
    client_id: { type: 'string' },
    redirect_uri: { type: 'string' },
    key_rules: text,
    code_challenge: text,
    code_challenge_method: text,
    org_scope: scope,
  },
  checkAuthorize: {
    api: apiSettings,
    client_id: { type: 'string' },
    redirect_uri: text,
    response_type: { type: 'string' },
    code_challenge: text,
    code_challenge_method: text,
  },
  token: {
    api: apiSettings,
    grant_type: { type: 'string' },
    client_id: { type: 'string' },
    client_secret: { type: 'string' },
    code: text,
    redirect_uri: text,
    refresh_token: text,
    username: text,
    password: text,
    code_verifier: text,
  },
};

export interface OAuthActions {
  'oauth.createClient': { params: OAuthCreateClientParams; result: OAuthClient };
  'oauth.listClients': { params: OAuthListClientsParams; result: { apps: OAuthClient[]; pages: number } };
  'oauth.getClient': { params: OAuthClientParams; result: OAuthClient };
  'oauth.removeClient': { params: OAuthClientParams; result: { client_id: string } };
  'oauth.listTokens': { params: OAuthClientParams; result: OAuthTokenEntry[] };
  'oauth.listTokensPage': { params: OAuthTokensPageParams; result: OAuthTokensPageResult };
  'oauth.updateClient': { params: OAuthUpdateClientParams; result: OAuthClient };
  /** a new secret for the client, in this answer only; tokens already issued stay valid */
  'oauth.rotateSecret': { params: OAuthClientParams; result: OAuthClient };
  'oauth.clientApis': { params: OAuthClientApisParams; result: string[] };
  'oauth.removeRefresh': { params: OAuthRemoveRefreshParams; result: { removed: boolean } };
  /** forgets tokens, refresh tokens and codes that expired more than the retain period ago */
  'oauth.purgeLapsed': { params: Record<string, never>; result: { purged: number } };
  'oauth.revoke': { params: OAuthRevokeParams; result: { revoked: boolean } };
  'oauth.revokeAll': { params: OAuthRevokeAllParams; result: { revoked: number } };
  'oauth.authorizeClient': { params: OAuthAuthorizeClientParams; result: OAuthAuthorizeClientResult };
  'oauth.checkAuthorize': { params: OAuthCheckAuthorizeParams; result: { redirect_uri: string } };
  'oauth.token': { params: OAuthTokenParams; result: OAuthTokenResponse };
}

/** The template of an issued token's session: `key_rules`, or what the client's policy gives. */
export type OAuthSessionTemplate = Session;

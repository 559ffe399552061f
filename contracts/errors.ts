/**
 * Error codes that cross the bus, and their wire shape. Callers branch on `type` (the code);
 * `code` carries the HTTP status the edge answers with.
 */
export type GwErrorCode =
  | 'GW_ERR_APIS_NOT_FOUND'
  | 'GW_ERR_APIS_LISTEN_PATH_TAKEN'
  | 'GW_ERR_APIS_LISTEN_PATH_OVERLAP'
  | 'GW_ERR_APIS_ID_TAKEN'
  | 'GW_ERR_APIS_ID_IN_USE'
  | 'GW_ERR_APIS_ID_MISMATCH'
  | 'GW_ERR_APIS_WRONG_ORG'
  | 'GW_ERR_APIS_INVALID'
  | 'GW_ERR_APIS_UPSTREAM'
  | 'GW_ERR_ORGS_NOT_FOUND'
  | 'GW_ERR_ORGS_ID_TAKEN'
  | 'GW_ERR_ORGS_INVALID'
  | 'GW_ERR_USERS_NOT_FOUND'
  | 'GW_ERR_USERS_EMAIL_TAKEN'
  | 'GW_ERR_USERS_UNKNOWN_ORG'
  | 'GW_ERR_USERS_BAD_ACCESS_KEY'
  | 'GW_ERR_USERS_INACTIVE'
  | 'GW_ERR_USERS_INVALID'
  | 'GW_ERR_USERS_BAD_PASSWORD'
  | 'GW_ERR_USERS_BAD_LOGIN'
  | 'GW_ERR_USERS_GROUP_NOT_FOUND'
  | 'GW_ERR_KEYS_NOT_FOUND'
  | 'GW_ERR_KEYS_INVALID'
  | 'GW_ERR_KEYS_TAKEN'
  | 'GW_ERR_KEYS_WRONG_ORG'
  | 'GW_ERR_KEYS_LISTING_DISABLED'
  | 'GW_ERR_WEBHOOKS_NOT_FOUND'
  | 'GW_ERR_WEBHOOKS_INVALID'
  | 'GW_ERR_POLICIES_NOT_FOUND'
  | 'GW_ERR_POLICIES_TAKEN'
  | 'GW_ERR_OAUTH_NOT_FOUND'
  | 'GW_ERR_OAUTH_INVALID'
  | 'GW_ERR_OAUTH_TAKEN'
  | 'GW_ERR_OAUTH_BAD_SECRET'
  | 'GW_ERR_OAUTH_PROTOCOL'
  | 'GW_ERR_CERTS_NOT_FOUND'
  | 'GW_ERR_CERTS_INVALID'
  | 'GW_ERR_CERTS_EXISTS';

export interface GwErrorWire {
  name: string;
  message: string;
  /** HTTP status */
  code: number;
  type: GwErrorCode | 'VALIDATION_ERROR' | string;
  data?: unknown;
}

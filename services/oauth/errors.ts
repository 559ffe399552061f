import { GwError } from '../../lib/errors';

/** RFC 6749 §5.2 error codes the token, authorise and revoke endpoints answer with. */
export type OAuthProtocolError =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'server_error';

/** Errors of the `oauth` service (clients, codes, tokens). */
export const OAuthErrors = {
  clientNotFound: (clientId: string) =>
    new GwError('GW_ERR_OAUTH_NOT_FOUND', 404, 'OAuth Client ID not found', { client_id: clientId }),
  apiNotOAuth: (apiId: string) =>
    new GwError('GW_ERR_OAUTH_INVALID', 400, `API ${apiId} does not use OAuth 2.0 (use_oauth2 is not true)`, {
      api_id: apiId,
    }),
  invalid: (message: string) => new GwError('GW_ERR_OAUTH_INVALID', 400, message),
  taken: (clientId: string) =>
    new GwError('GW_ERR_OAUTH_TAKEN', 400, `An OAuth client with id ${clientId} already exists`, {
      client_id: clientId,
    }),
  apiMissing: (apiId: string) => new GwError('GW_ERR_APIS_NOT_FOUND', 404, "API doesn't exist", { id: apiId }),
  policyMissing: (policyId: string) =>
    new GwError('GW_ERR_OAUTH_NOT_FOUND', 404, "Policy doesn't exist", { policy_id: policyId }),
  policyWithoutApi: (policyId: string) =>
    new GwError('GW_ERR_OAUTH_INVALID', 400, "Policy access rights doesn't contain API this OAuth client belongs to", {
      policy_id: policyId,
    }),
  badSecret: () => new GwError('GW_ERR_OAUTH_BAD_SECRET', 403, 'The client secret does not match'),
  /** An OAuth protocol error: the gateway answers `{error, error_description}` with this status. */
  protocol: (status: 400 | 401, error: OAuthProtocolError, description: string) =>
    new GwError('GW_ERR_OAUTH_PROTOCOL', status, description, { error, error_description: description }),
};

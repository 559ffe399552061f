import type { ApiDefinition } from '../../../../../contracts/apis/api-definition';
import type { CredentialLocations } from '../../credentials';
import { bearerKeyAuthenticator } from './token';
import type { Authenticator, AuthStepDeps } from './key-check';

/**
 * OAuth 2.0 access tokens (`use_oauth2`, `oauth_key`): issued tokens are keys of the key store,
 * sent as `Authorization: Bearer <token>` (or the header named in `auth_configs.oauth`).
 */
export function oauthAuthenticator(definition: ApiDefinition, deps: AuthStepDeps): Authenticator {
  const configs = definition.auth_configs as Record<string, Record<string, unknown> | undefined> | undefined;
  const name = configs?.oauth?.auth_header_name;
  const where: CredentialLocations = {
    header: typeof name === 'string' && name !== '' ? name : 'Authorization',
    query: undefined,
    cookie: undefined,
  };
  return bearerKeyAuthenticator('oauth_key', where, definition.strip_auth_data === true, deps);
}

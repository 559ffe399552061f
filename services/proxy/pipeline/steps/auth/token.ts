import type { ApiDefinition } from '../../../../../contracts/apis/api-definition';
import { findCredential, tokenLocations, type CredentialLocations } from '../../credentials';
import { GatewayMessages } from '../../gateway-errors';
import { refuse } from '../../refuse';
import { admit, checkCredential, type Authenticator, type AuthStepDeps, type IdentityMode } from './key-check';

/** An auth token (`auth_token`): a key from the API's token locations, `Bearer ` optional. */
export function tokenAuthenticator(definition: ApiDefinition, deps: AuthStepDeps): Authenticator {
  return bearerKeyAuthenticator('auth_token', tokenLocations(definition), definition.strip_auth_data === true, deps);
}

/** A key looked up in the key store, read from `where`; OAuth access tokens are such keys too. */
export function bearerKeyAuthenticator(mode: IdentityMode, where: CredentialLocations, strip: boolean, deps: AuthStepDeps): Authenticator {
  return {
    mode,
    step: async (ctx) => {
      if (ctx.endpoint.kind === 'ignored') return;
      const found = findCredential(ctx, where);
      if (!found) return refuse(ctx, 401, GatewayMessages.authFieldMissing);
      const key = found.value.replace(/^Bearer\s+/i, '').trim();
      return admit(ctx, deps, await checkCredential(deps, { kind: 'token', key }), strip ? [where, found] : undefined);
    },
  };
}

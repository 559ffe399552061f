import type { ApiDefinition } from '../../../../../contracts/apis/api-definition';
import { findCredential, tokenLocations, type CredentialLocations, type FoundCredential } from '../../credentials';
import { GatewayMessages } from '../../gateway-errors';
import { refuse } from '../../refuse';
import { admit, checkCredential, type Authenticator, type AuthStepDeps, type IdentityMode } from './key-check';

/** An auth token (`auth_token`): a key from the API's token locations, `Bearer ` optional. */
export function tokenAuthenticator(definition: ApiDefinition, deps: AuthStepDeps): Authenticator {
  return bearerKeyAuthenticator('auth_token', tokenLocations(definition), definition.strip_auth_data === true, deps);
}

/** A key looked up in the key store, read from `where`; OAuth access tokens are such keys too. */
export function bearerKeyAuthenticator(
  mode: IdentityMode,
  where: CredentialLocations,
  strip: boolean,
  deps: AuthStepDeps,
): Authenticator {
  return {
    mode,
    // Synchronous while the key's session is cached: no promise on the request's way.
    step: (ctx) => {
      if (ctx.endpoint.kind === 'ignored') return;
      const found = findCredential(ctx, where);
      if (!found) return refuse(ctx, 401, GatewayMessages.authFieldMissing);
      const result = checkCredential(deps, { kind: 'token', key: withoutBearer(found.value) });
      const stripped: [CredentialLocations, FoundCredential] | undefined = strip ? [where, found] : undefined;
      return result instanceof Promise
        ? result.then((settled) => admit(ctx, deps, settled, stripped))
        : admit(ctx, deps, result, stripped);
    },
  };
}

/** `Bearer ` is optional before a key or a token (JWT, OpenID Connect), as in the reference gateway. */
export function withoutBearer(value: string): string {
  const first = value.charCodeAt(0);
  // Only a value starting with b or B can carry the word: the others skip the expression.
  return first === 0x42 || first === 0x62 ? value.replace(/^Bearer\s+/i, '').trim() : value.trim();
}

import { BASE_IDENTITY_MODES, type ApiDefinition, type IdentityMode } from '../../../../contracts/apis/api-definition';
import type { GwPlugin } from '../../../../plugins/sdk/define-plugin';
import type { Step } from '../compose';
import { allOf } from './auth/all-of';
import { basicAuthenticator } from './auth/basic';
import { hmacAuthenticator } from './auth/hmac';
import { jwtAuthenticator } from './auth/jwt';
import { openIdAuthenticator } from './auth/openid';
import type { Authenticator, AuthStepDeps } from './auth/key-check';
import { oauthAuthenticator } from './auth/oauth';
import { pluginAuthenticator } from './auth/plugin';
import { tokenAuthenticator } from './auth/token';
import { withCertificateIdentity } from './auth/certificate';

export type { AuthStepDeps } from './auth/key-check';

/**
 * Authentication of a protected API (not `use_keyless`), one authenticator per enabled mode in
 * the reference gateway's order: OAuth 2.0 (`use_oauth2`), basic (`use_basic_auth`), HMAC
 * signatures (`enable_signature_checking`), JSON Web Tokens (`enable_jwt`), OpenID Connect
 * (`use_openid`), an `auth_check` plugin, then the auth token
 * (`use_standard_auth`, or when no other mode is on).
 * One mode is its own step; several must all pass (auth/all-of.ts). Credentials are checked by
 * the `auth` service. Ignored endpoints skip authentication, as in the reference gateway.
 * Throws (the API is not served) when `base_identity_provided_by` names a mode the API does not use.
 */
export function authenticationStep(
  definition: ApiDefinition,
  authCheck: GwPlugin | undefined,
  deps: AuthStepDeps,
): Step | undefined {
  if (definition.use_keyless === true) return undefined;
  const modes: Authenticator[] = [];
  if (definition.use_oauth2 === true) modes.push(oauthAuthenticator(definition, deps));
  if (definition.use_basic_auth === true) modes.push(basicAuthenticator(definition, deps));
  if (definition.enable_signature_checking === true) modes.push(hmacAuthenticator(definition, deps));
  if (definition.enable_jwt === true) modes.push(jwtAuthenticator(definition, deps));
  if (definition.use_openid === true) modes.push(openIdAuthenticator(definition, deps));
  if (authCheck) modes.push(pluginAuthenticator(authCheck, deps.logger));
  if (definition.use_standard_auth === true || modes.length === 0)
    modes.push(withCertificateIdentity(definition, tokenAuthenticator(definition, deps), deps));
  if (modes.length === 1) return modes[0].step;
  return allOf(modes, baseIdentity(definition, modes));
}

/** `base_identity_provided_by`: '' or absent = unset; otherwise one of the API's own modes. */
function baseIdentity(definition: ApiDefinition, modes: Authenticator[]): IdentityMode | undefined {
  const base = definition.base_identity_provided_by;
  if (base === undefined || base === null || base === '') return undefined;
  if (typeof base !== 'string' || !(BASE_IDENTITY_MODES as readonly string[]).includes(base)) {
    throw new Error(
      `base_identity_provided_by must be one of ${BASE_IDENTITY_MODES.join(', ')}, got ${JSON.stringify(base)}`,
    );
  }
  if (!modes.some((m) => m.mode === base)) {
    throw new Error(
      `base_identity_provided_by is ${base}, a mode this API does not use (it uses ${modes.map((m) => m.mode).join(', ')})`,
    );
  }
  return base as IdentityMode;
}

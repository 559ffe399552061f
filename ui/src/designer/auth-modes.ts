import type { Definition } from '../definition';

/**
 * The client authentication modes gw serves (docs/authentication.md#several-modes-on-one-api,
 * services/proxy/pipeline/steps/authentication.ts): each is switched on by its flag, several
 * may be on together (all must pass), and `base_identity_provided_by` then names the one whose
 * key gives the session.
 */
export interface AuthMode {
  id: string;
  label: string;
  /** the definition's flag */
  flag: string;
  /** its name in `base_identity_provided_by` */
  identity: string;
}

export const AUTH_METHODS: AuthMode[] = [
  { id: 'token', label: 'Auth token', flag: 'use_standard_auth', identity: 'auth_token' },
  { id: 'basic', label: 'Basic authentication', flag: 'use_basic_auth', identity: 'basic_auth_user' },
  { id: 'hmac', label: 'HMAC request signatures', flag: 'enable_signature_checking', identity: 'hmac_key' },
  { id: 'oauth2', label: 'OAuth 2.0', flag: 'use_oauth2', identity: 'oauth_key' },
  { id: 'jwt', label: 'JSON Web Token (JWT)', flag: 'enable_jwt', identity: 'jwt_claim' },
  { id: 'oidc', label: 'OpenID Connect', flag: 'use_openid', identity: 'oidc_user' },
  { id: 'plugin', label: 'Custom plugin (auth_check)', flag: 'enable_coprocess_auth', identity: 'custom_auth' },
];

/** `jwt_signing_method`: the key family a token's signature is checked with. */
export const JWT_SIGNING_METHODS: Array<[string, string]> = [
  ['hmac', 'HMAC (shared secret)'],
  ['rsa', 'RSA (public key or JWKS)'],
  ['ecdsa', 'ECDSA (public key or JWKS)'],
  ['eddsa', 'EdDSA (public key or JWKS)'],
];
/** Switching JWT on picks a method so the form shows what is stored; RSA is what identity providers' JWKS mostly serve. */
const DEFAULT_JWT_SIGNING_METHOD = 'rsa';

export const HMAC_ALGORITHMS = ['hmac-sha1', 'hmac-sha256', 'hmac-sha384', 'hmac-sha512', 'rsa-sha256'];
export const OAUTH_GRANTS: Array<[string, string]> = [
  ['authorization_code', 'Authorization code'],
  ['refresh_token', 'Refresh token'],
  ['client_credentials', 'Client credentials'],
  ['password', 'Password (resource owner)'],
];
export const OAUTH_AUTHORIZE_TYPES: Array<[string, string]> = [
  ['code', 'code'],
  ['token', 'token'],
];

/** A custom auth plugin is the definition's `custom_middleware.auth_check`; the flag mirrors it as the reference format does. */
export function isOn(def: Definition, mode: AuthMode): boolean {
  if (mode.id === 'plugin') return Boolean(def.custom_middleware?.auth_check);
  if (mode.id === 'token')
    return (
      def.use_standard_auth === true ||
      (def.use_keyless !== true && !AUTH_METHODS.some((m) => m.id !== 'token' && isOn(def, m)))
    );
  return def[mode.flag] === true;
}

export function withMode(def: Definition, mode: AuthMode, on: boolean): Definition {
  const next: Definition = { ...def, use_keyless: false, [mode.flag]: on };
  if (mode.id === 'plugin') {
    const { auth_check: _old, ...rest } = def.custom_middleware ?? {};
    next.custom_middleware = on
      ? { ...rest, auth_check: def.custom_middleware?.auth_check ?? { name: '', path: '' } }
      : rest;
  }
  if (mode.id === 'jwt' && on && !def.jwt_signing_method) next.jwt_signing_method = DEFAULT_JWT_SIGNING_METHOD;
  // The identity provider must be a mode the API uses; the gateway refuses to load it otherwise.
  const choices = identityChoices(next);
  if (choices.length === 0 || !choices.some(([identity]) => identity === next.base_identity_provided_by))
    next.base_identity_provided_by = '';
  return next;
}

/**
 * The modes that may provide the session (`base_identity_provided_by`): those the API uses, as
 * [identity, label]; none when it uses fewer than two (the one mode provides it).
 */
export function identityChoices(def: Definition): Array<[string, string]> {
  if (def.use_keyless === true) return [];
  const used = AUTH_METHODS.filter((m) => isOn(def, m));
  return used.length < 2 ? [] : used.map((m) => [m.identity, m.label]);
}

/** Keyless, or protected by the auth token until another mode is chosen. */
export function withKeyless(def: Definition, keyless: boolean): Definition {
  if (keyless) return { ...def, use_keyless: true };
  const anyOn = AUTH_METHODS.some((m) => m.id !== 'token' && def[m.flag] === true);
  return { ...def, use_keyless: false, use_standard_auth: anyOn ? def.use_standard_auth === true : true };
}

/** Where the auth token's locations are read: `auth_configs.authToken` wins over `auth` (services/proxy/pipeline/credentials.ts). */
export function tokenSettingsPath(def: Definition): string {
  return def.auth_configs?.authToken ? 'auth_configs.authToken' : 'auth';
}

/** The first error at or below a field path (`hmac_allowed_algorithms[1]` belongs to `hmac_allowed_algorithms`). */
export function errorAt(errors: Record<string, string>, path: string): string | undefined {
  if (errors[path]) return errors[path];
  return Object.entries(errors).find(([key]) => key.startsWith(`${path}.`) || key.startsWith(`${path}[`))?.[1];
}

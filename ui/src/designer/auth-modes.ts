import type { Definition } from '../definition';

/**
 * The client authentication modes gw serves (docs/authentication.md#several-modes-on-one-api,
 * services/proxy/pipeline/steps/authentication.ts): each is switched on by its flag, several
 * may be on together (all must pass), and `base_identity_provided_by` then names the one whose
 * key gives the session. gw does not serve JWT or OpenID Connect.
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
  { id: 'plugin', label: 'Custom plugin (auth_check)', flag: 'enable_coprocess_auth', identity: 'custom_auth' },
];

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
  // The identity provider must be a mode the API uses; the gateway refuses to load it otherwise.
  const used = AUTH_METHODS.filter((m) => isOn(next, m));
  if (used.length < 2 || !used.some((m) => m.identity === next.base_identity_provided_by))
    next.base_identity_provided_by = '';
  return next;
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

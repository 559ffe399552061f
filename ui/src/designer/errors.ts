import { ApiError } from '../api';

/** The designer's tabs, in the order they show. */
export const TABS = [
  'Core settings',
  'Authentication',
  'Versions',
  'Endpoint rules',
  'Rate limits and quotas',
  'GraphQL',
  'Webhooks',
  'Raw definition',
] as const;
export type Tab = (typeof TABS)[number];

/** Where a field path of the definition is edited: the tab, and for endpoint rules the version. */
export function placeOf(path: string): { tab: Tab; version?: string } {
  const rules = /^version_data\.versions\.(.+?)\.(extended_paths|paths)\./.exec(path);
  if (rules) return { tab: 'Endpoint rules', version: rules[1] };
  if (path.startsWith('version_data') || path.startsWith('definition')) return { tab: 'Versions' };
  if (
    /^(use_|enable_signature|enable_coprocess|auth|hmac_|basic_auth|oauth_meta|notifications|strip_auth|base_identity|client_certificates|custom_middleware\.auth_check|jwt_|openid)/.test(
      path,
    )
  )
    return { tab: 'Authentication' };
  if (/(rate|quota|throttle)/.test(path)) return { tab: 'Rate limits and quotas' };
  if (path.startsWith('graphql')) return { tab: 'GraphQL' };
  if (path.startsWith('hook_references')) return { tab: 'Webhooks' };
  if (/^(name|proxy|active|slug)/.test(path)) return { tab: 'Core settings' };
  return { tab: 'Raw definition' };
}

/**
 * The server's refusal as `{field path: message}`. Validator errors name the field in quotes
 * ("The 'api_definition.proxy.listen_path' field …"); the save-time checks lead with it
 * ("Version 'v2', extended_paths.transform[0]: template_data.template_source is not …",
 * "Version 'v2', expires: …",
 * "basic_auth.body_user_regexp is not a valid pattern", "custom_middleware.auth_check: …",
 * "jwt_signing_method must be one of …").
 */
export function fieldErrors(err: unknown): Record<string, string> {
  if (!(err instanceof ApiError)) return {};
  return { ...err.fields('api_definition.'), ...unquotedFields(err.message, err.errors) };
}

function unquotedFields(message: string, errors: string[]): Record<string, string> {
  if (/^Invalid GraphQL schema/.test(message))
    return { 'graphql.schema': errors.length > 0 ? `${message}: ${errors.join(' ')}` : message };
  if (/^hook_references\[\d+\]/.test(message)) return { hook_references: message };
  // A supergraph that does not compose: its errors are listed on the GraphQL tab, by the subgraphs.
  if (/^Federation failed/.test(message)) return { 'graphql.supergraph.subgraphs': message };
  const setting = /^Version '([^']+)', (expires|override_target): (.*)$/.exec(message);
  if (setting) return { [`version_data.versions.${setting[1]}.${setting[2]}`]: setting[3] };
  const version = /^Version '([^']+)', ((?:extended_paths|paths)\.[a-z_]+\[\d+\]): (.*)$/.exec(message);
  if (version) {
    const [, name, entry, problem] = version;
    return { [`version_data.versions.${name}.${entry}.${entryField(problem)}`]: `${entry}: ${problem}` };
  }
  if (/graphql|schema/i.test(message) && !/The '/.test(message) && !/^[a-z_]+\./.test(message))
    return { 'graphql.schema': message };
  const led = /^([a-z_]+(?:\.[a-z_]+|\[\d+\])+)(?::| )/.exec(message);
  if (led) return { [led[1]]: message };
  // JWT and OpenID Connect settings are top-level fields: "jwt_source is not base64 …".
  const auth = /^((?:jwt|openid)_[a-z_]+)(?::| )/.exec(message);
  if (auth) return { [auth[1]]: message };
  return {};
}

/** Which field of an endpoint entry a save-time problem is about: the one it leads with, else the path. */
function entryField(problem: string): string {
  const led = /^([a-z_]+(?:\.[a-z_]+)*)\b/.exec(problem);
  if (led && !['endpoint', 'path'].includes(led[1])) return led[1];
  return 'path';
}

/** The messages under `prefix` (an entry, a version) that no field of `shown` displays. */
export function unshownErrors(
  errors: Record<string, string>,
  prefix: string,
  shown: (path: string) => boolean,
): string[] {
  return Object.entries(errors)
    .filter(([path]) => path.startsWith(prefix) && !shown(path))
    .map(([, message]) => message);
}

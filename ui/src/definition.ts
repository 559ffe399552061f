/** API definitions as the dashboard REST API stores them, and the small helpers the designer needs. */

/** Definitions are open-ended JSON (SPEC.md "API definition"); the designer edits known paths. */
export type Definition = Record<string, any>;

export interface ApiRecord {
  api_definition: Definition;
  hook_references?: unknown[];
}

export function kindOf(def: Definition): 'GraphQL' | 'Stream' | 'REST' {
  if (def.graphql?.enabled) return 'GraphQL';
  if (def.streaming?.streams && Object.keys(def.streaming.streams).length > 0) return 'Stream';
  if (JSON.stringify(def).includes('x-gw-streaming')) return 'Stream';
  return 'REST';
}

export const AUTH_MODES: Array<[string, string]> = [
  ['keyless', 'Open (keyless)'],
  ['token', 'Auth token'],
  ['basic', 'Basic authentication'],
  ['hmac', 'HMAC signatures'],
  ['jwt', 'JSON Web Token'],
  ['oauth2', 'OAuth 2.0'],
  ['mtls', 'Mutual TLS'],
  ['oidc', 'OpenID Connect'],
  ['plugin', 'Custom plugin'],
];

const MODE_FLAGS: Record<string, string> = {
  basic: 'use_basic_auth',
  hmac: 'enable_signature_checking',
  jwt: 'enable_jwt',
  oauth2: 'use_oauth2',
  mtls: 'use_mutual_tls_auth',
  oidc: 'use_openid',
  plugin: 'enable_coprocess_auth',
};

export function authModeOf(def: Definition): string {
  if (def.use_keyless) return 'keyless';
  for (const [mode, flag] of Object.entries(MODE_FLAGS)) if (def[flag]) return mode;
  return 'token';
}

export function withAuthMode(def: Definition, mode: string): Definition {
  const next: Definition = { ...def, use_keyless: mode === 'keyless', use_standard_auth: mode === 'token' };
  for (const [other, flag] of Object.entries(MODE_FLAGS)) next[flag] = other === mode;
  return next;
}

export function authLabel(def: Definition): string {
  const mode = authModeOf(def);
  return AUTH_MODES.find(([value]) => value === mode)?.[1] ?? mode;
}

/** The value at a dotted path (`proxy.listen_path`). */
export function at(def: Definition, path: string): unknown {
  return path.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Definition)[part] : undefined), def);
}

/** A copy with the value at a dotted path replaced, creating objects on the way. */
export function setAt(def: Definition, path: string, value: unknown): Definition {
  const [head, ...rest] = path.split('.');
  if (rest.length === 0) return { ...def, [head]: value };
  const child = def[head] && typeof def[head] === 'object' ? def[head] : {};
  return { ...def, [head]: setAt(child, rest.join('.'), value) };
}

export function newDefinition(): Definition {
  return {
    name: '',
    active: true,
    use_keyless: true,
    proxy: { listen_path: '/', target_url: 'http://', strip_listen_path: true },
    version_data: { not_versioned: true, default_version: 'Default', versions: { Default: { name: 'Default', use_extended_paths: true } } },
  };
}

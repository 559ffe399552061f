import { AUTH_METHODS, isOn } from './designer/auth-modes';

/** API definitions as the dashboard REST API stores them, and the small helpers the designer needs. */

/** Definitions are open-ended JSON in the reference gateway's format; the designer edits known paths. */
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

/** How the APIs list names an API's authentication: keyless, or its methods (plus mutual TLS). */
export function authLabel(def: Definition): string {
  const methods =
    def.use_keyless === true
      ? ['Open (keyless)']
      : AUTH_METHODS.filter((mode) => isOn(def, mode)).map((mode) => mode.label);
  if (def.use_mutual_tls_auth === true) methods.push('Mutual TLS');
  return methods.join(' + ');
}

/** The value at a dotted path (`proxy.listen_path`). */
export function at(def: Definition, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Definition)[part] : undefined), def);
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
    version_data: {
      not_versioned: true,
      default_version: 'Default',
      versions: { Default: { name: 'Default', use_extended_paths: true } },
    },
  };
}

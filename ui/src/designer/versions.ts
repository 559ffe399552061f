import type { Definition } from '../definition';

/**
 * The classic definition's versions (docs/gateway.md#versions): `version_data {not_versioned,
 * default_version, versions}` and `definition {location, key, strip_versioning_data}`. Version
 * names may hold dots ("1.2"), so versions are replaced whole, never set by a dotted path.
 */
export type Version = Record<string, any>;

export function versionsOf(def: Definition): Record<string, Version> {
  return def.version_data?.versions ?? {};
}

export function versionNames(def: Definition): string[] {
  const names = Object.keys(versionsOf(def));
  return names.length > 0 ? names : ['Default'];
}

/** The version endpoint rules open on: the default one, or the first. */
export function defaultVersionName(def: Definition): string {
  const names = versionNames(def);
  const chosen = def.version_data?.default_version;
  return typeof chosen === 'string' && names.includes(chosen) ? chosen : names[0];
}

export function withVersion(def: Definition, name: string, version: Version): Definition {
  const versions = { ...versionsOf(def), [name]: version };
  return { ...def, version_data: { ...(def.version_data ?? {}), versions } };
}

export function withoutVersion(def: Definition, name: string): Definition {
  const { [name]: _removed, ...versions } = versionsOf(def);
  const data = { ...(def.version_data ?? {}), versions };
  if (data.default_version === name) data.default_version = Object.keys(versions)[0] ?? '';
  return { ...def, version_data: data };
}

/** Versioned or not; turning versions on names a location the gateway reads (a header by default). */
export function withVersioning(def: Definition, versioned: boolean): Definition {
  const data = { ...(def.version_data ?? {}), not_versioned: !versioned };
  if (!data.default_version) data.default_version = versionNames(def)[0];
  const location = def.definition?.location
    ? def.definition
    : { ...(def.definition ?? {}), location: 'header', key: 'x-api-version' };
  return { ...def, version_data: data, definition: versioned ? location : def.definition };
}

/** `expires` as the reference gateway writes it (`2006-01-02 15:04`, UTC) to and from a datetime-local input. */
export function expiryInput(expires: unknown): string {
  if (typeof expires !== 'string') return '';
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})/.exec(expires.trim());
  return match ? `${match[1]}T${match[2]}` : '';
}

export function expiryValue(input: string): string {
  return input === '' ? '' : input.replace('T', ' ').slice(0, 16);
}

export const VERSION_LOCATIONS: Array<[string, string]> = [
  ['header', 'A request header'],
  ['url-param', 'A query parameter'],
  ['url', 'The first path segment (/v2/…)'],
];

export const DEFAULT_KEYS: Record<string, string> = { header: 'x-api-version', 'url-param': 'version', url: '' };

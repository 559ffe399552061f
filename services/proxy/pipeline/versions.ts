import type { ApiDefinition } from '../../../contracts/apis/api-definition';

/**
 * Where a request names its version (docs/gateway.md#versions): `definition.location` is `header`
 * (default key `x-api-version`), `url-param` (default key `version`) or `url` (the first path
 * segment below the listen path).
 */
export interface VersionLocation {
  location: 'header' | 'url-param' | 'url';
  key: string;
  /** remove the `/v1` segment before proxying (`strip_versioning_data`, or the older `strip_path`) */
  stripUrlSegment: boolean;
}

export interface VersionSettings {
  notVersioned: boolean;
  defaultVersion: string | undefined;
  location: VersionLocation;
  /** version name → its definition, in definition order */
  versions: Map<string, Record<string, unknown>>;
}

export function readVersionSettings(definition: ApiDefinition): VersionSettings {
  const data = (definition.version_data ?? {}) as Record<string, unknown>;
  const versions = new Map<string, Record<string, unknown>>();
  for (const [name, version] of Object.entries((data.versions ?? {}) as Record<string, Record<string, unknown>>)) {
    versions.set(name, { ...version, name: version?.name ?? name });
  }
  if (versions.size === 0) versions.set('Default', { name: 'Default' });
  const def = (definition.definition ?? {}) as Record<string, unknown>;
  const location = def.location === 'url-param' || def.location === 'url' ? def.location : 'header';
  const defaultKey = location === 'header' ? 'x-api-version' : location === 'url-param' ? 'version' : '';
  return {
    notVersioned: data.not_versioned !== false,
    defaultVersion:
      typeof data.default_version === 'string' && data.default_version !== '' ? data.default_version : undefined,
    location: {
      location,
      key: typeof def.key === 'string' && def.key !== '' ? def.key : defaultKey,
      stripUrlSegment: def.strip_versioning_data === true || def.strip_path === true,
    },
    versions,
  };
}

export { parseExpiry } from '../../../lib/version-expiry';

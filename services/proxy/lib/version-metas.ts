import type { ApiDefinition } from '../../../contracts/apis/api-definition';

/** One version of a versioned API, as `GET /gw/apis/{id}/versions` lists it. */
export interface VersionMeta {
  id: string;
  name: string;
  versionName: string;
  internal: boolean;
  expirationDate: string;
  isDefaultVersion: boolean;
}

export interface VersionFilter {
  /** part of the version name, any case; empty = every version */
  searchText: string;
  /** `internal` or `external` keeps only those; anything else keeps both */
  accessType: string;
}

/** The versioning block of a classic definition (`definition`), the fields the listing reads. */
interface VersionDefinition {
  name: string;
  default: string;
  versions: Record<string, unknown>;
}

function versionDefinition(api: ApiDefinition): VersionDefinition {
  const def = (api.definition ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const versions = typeof def.versions === 'object' && def.versions !== null ? def.versions : {};
  return { name: text(def.name), default: text(def.default), versions: versions as Record<string, unknown> };
}

/** `self` as the default names the base API's own version. */
function resolvedDefault(def: VersionDefinition): string {
  return def.default === 'self' ? def.name : def.default;
}

/**
 * The base API first, then its child versions by version name, as the reference gateway lists
 * them. A child this node does not serve is left out, as the reference leaves out one it can
 * not load; the filter applies to the base API too.
 */
export function listVersions(
  base: ApiDefinition,
  served: (apiId: string) => ApiDefinition | undefined,
  filter: VersionFilter,
): VersionMeta[] {
  const def = versionDefinition(base);
  const search = filter.searchText.toLowerCase();
  const included = (api: ApiDefinition, versionName: string) => {
    const internal = api.internal === true;
    if (filter.accessType === 'internal' && !internal) return false;
    if (filter.accessType === 'external' && internal) return false;
    return search === '' || versionName.toLowerCase().includes(search);
  };
  const meta = (api: ApiDefinition, versionName: string): VersionMeta => ({
    id: api.api_id,
    name: api.name,
    versionName,
    internal: api.internal === true,
    expirationDate: typeof api.expiration === 'string' ? api.expiration : '',
    isDefaultVersion: resolvedDefault(def) === versionName,
  });
  const children: VersionMeta[] = [];
  for (const [versionName, id] of Object.entries(def.versions)) {
    const child = typeof id === 'string' && id !== '' ? served(id) : undefined;
    if (child && included(child, versionName)) children.push(meta(child, versionName));
  }
  children.sort((a, b) => (a.versionName < b.versionName ? -1 : a.versionName > b.versionName ? 1 : 0));
  return included(base, def.name) ? [meta(base, def.name), ...children] : children;
}

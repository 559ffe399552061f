import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import { compileTenantPattern, type TenantPattern } from '../../../lib/patterns/tenant-pattern';

/**
 * A base API's versioning across APIs (an OAS definition's `info.versioning`, stored in the
 * classic form as the reference gateway does: `definition.versions` maps a version name to the
 * api_id of the API that serves it). Undefined when the API does not route to other APIs.
 */
export interface VersionRouting {
  location: 'header' | 'url-param' | 'url';
  key: string;
  /** the base API's own version name; `self` names it too */
  selfName: string;
  defaultVersion: string;
  /** version name → api_id of the child API */
  children: Map<string, string>;
  stripVersioningData: boolean;
  fallbackToDefault: boolean;
  /** `url` location: a first segment this does not match names no version (the default applies) */
  urlPattern: TenantPattern | undefined;
}

export const SELF_VERSION = 'self';

export function readVersionRouting(definition: ApiDefinition): VersionRouting | undefined {
  const def = (definition.definition ?? {}) as Record<string, unknown>;
  const versions = def.versions as Record<string, unknown> | undefined;
  if (def.enabled !== true || !versions || typeof versions !== 'object') return undefined;
  const children = new Map<string, string>();
  for (const [name, id] of Object.entries(versions)) if (typeof id === 'string' && id !== '') children.set(name, id);
  if (children.size === 0) return undefined;
  const location = def.location === 'url-param' || def.location === 'url' ? def.location : 'header';
  const text = (value: unknown, fallback: string) => (typeof value === 'string' && value !== '' ? value : fallback);
  const selfName = text(def.name, SELF_VERSION);
  return {
    location,
    key: text(def.key, location === 'header' ? 'x-api-version' : location === 'url-param' ? 'version' : ''),
    selfName,
    defaultVersion: text(def.default, selfName),
    children,
    stripVersioningData: def.strip_versioning_data === true,
    fallbackToDefault: def.fallback_to_default === true,
    urlPattern:
      location === 'url' && text(def.url_versioning_pattern, '') !== ''
        ? compileTenantPattern(def.url_versioning_pattern as string)
        : undefined,
  };
}

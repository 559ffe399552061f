import { compileTenantPattern } from '../../../../lib/patterns/tenant-pattern';
import { ApisErrors } from '../../errors';
import { GATEWAY_EXTENSION, pointer } from './document';
import { on, type GatewayExtension } from './gateway-extension';

const SELF = 'self';

/**
 * `info.versioning` of a base API as the classic `definition` block the reference gateway keeps
 * for it: `versions` maps each child version's name to its api_id; the base API's own version
 * is `name` (or `self`). The gateway hands a request naming a child version to that API's chain.
 */
export function versioningToClassic(x: GatewayExtension): Record<string, unknown> {
  const versioning = x.info.versioning;
  if (!on(versioning)) return {};
  const v = versioning!;
  const at = (...field: Array<string | number>) =>
    pointer(GATEWAY_EXTENSION, 'info', 'versioning', ...field.map(String));
  const errors: string[] = [];
  if (!v.name) errors.push(`${at('name')}: the base API's own version name is required when versioning is enabled`);
  if (!v.location) errors.push(`${at('location')}: required when versioning is enabled (header, url-param or url)`);
  if (v.location !== 'url' && v.location && !v.key)
    errors.push(
      `${at('key')}: the ${v.location === 'header' ? 'header' : 'query parameter'} that names the version is required`,
    );
  const names = new Set([v.name, SELF]);
  (v.versions ?? []).forEach((entry, i) => {
    if (names.has(entry.name)) errors.push(`${at('versions', i, 'name')}: version name '${entry.name}' is used twice`);
    if (x.info.id && entry.id === x.info.id)
      errors.push(`${at('versions', i, 'id')}: a version can not be the base API itself`);
    names.add(entry.name);
  });
  if (v.urlVersioningPattern) {
    try {
      compileTenantPattern(v.urlVersioningPattern);
    } catch (err) {
      errors.push(
        `${at('urlVersioningPattern')}: not a regular expression gw can run (RE2): ${(err as Error).message}`,
      );
    }
  }
  if (v.default && !names.has(v.default))
    errors.push(`${at('default')}: '${v.default}' is neither the base version nor one of versions[].name`);
  if (errors.length > 0) throw ApisErrors.invalidOas(errors);
  return {
    definition: {
      enabled: true,
      name: v.name,
      default: v.default || SELF,
      location: v.location,
      key: v.key ?? '',
      strip_versioning_data: v.stripVersioningData === true,
      fallback_to_default: v.fallbackToDefault === true,
      url_versioning_pattern: v.urlVersioningPattern ?? '',
      versions: Object.fromEntries((v.versions ?? []).map((entry) => [entry.name, entry.id])),
    },
  };
}

/** The classic `definition` block of a base API back as `info.versioning` (export of a classic definition). */
export function versioningFromClassic(
  definition: Record<string, unknown>,
): NonNullable<GatewayExtension['info']['versioning']> | undefined {
  const def = (definition.definition ?? {}) as Record<string, unknown>;
  const versions = def.versions as Record<string, string> | undefined;
  // classic definitions versioned inside one API (`version_data`) keep that form; only a base API naming others exports this
  if (def.enabled !== true || !versions || typeof versions !== 'object' || Object.keys(versions).length === 0)
    return undefined;
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  const versioning = {
    enabled: true,
    name: text(def.name),
    default: text(def.default),
    location: text(def.location),
    key: text(def.key),
    stripVersioningData: def.strip_versioning_data === true,
    fallbackToDefault: def.fallback_to_default === true,
    ...(text(def.url_versioning_pattern) ? { urlVersioningPattern: text(def.url_versioning_pattern) } : {}),
    versions: Object.entries(versions).map(([name, id]) => ({ name, id })),
  };
  return Object.fromEntries(Object.entries(versioning).filter(([, value]) => value !== undefined));
}

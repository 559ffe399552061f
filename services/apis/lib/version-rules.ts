import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import { parseExpiry } from '../../../lib/version-expiry';

type Fields = Record<string, unknown>;

/**
 * A version the gateway could not load: an `expires` that is no date, an `override_target`
 * that is not an absolute http(s) URL. Found at save time, named by version and field
 * ("Version 'v2', expires: …"), rather than the API answering 503 once a gateway loads it.
 */
export function versionProblem(definition: ApiDefinition): string | undefined {
  const versions = asFields(asFields(definition.version_data).versions);
  for (const [name, raw] of Object.entries(versions)) {
    const version = asFields(raw);
    try {
      parseExpiry(version.expires);
    } catch (err) {
      return `Version '${name}', expires: ${(err as Error).message}`;
    }
    const target = version.override_target;
    if (target !== undefined && target !== '' && !isHttpUrl(target)) {
      return `Version '${name}', override_target: '${String(target)}' is not an absolute http://, https:// or h2c:// URL`;
    }
  }
  return undefined;
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'h2c:';
  } catch {
    return false;
  }
}

function asFields(value: unknown): Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {};
}

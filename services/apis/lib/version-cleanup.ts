import type { StoredApi } from './api-store';
import { GATEWAY_EXTENSION } from './oas';

type Fields = Record<string, unknown>;

/**
 * A base API that names `removedApiId` as one of its versions, as it is to be stored once that
 * API is deleted: the version is gone from its classic `definition.versions` and, for an API in
 * OAS form, from `info.versioning.versions` of its document, and a default that was that version
 * falls back to the base's own (the reference's handleBaseVersionCleanup). Without this the base
 * would keep routing a version to an API that no longer exists, and an OAS base could not be
 * saved again (its versions must name APIs that exist). Undefined when `api` names no such version.
 */
export function withoutVersion(api: StoredApi, removedApiId: string): StoredApi | undefined {
  if (api.definition.api_id === removedApiId) return undefined;
  const block = objectOr(api.definition.definition);
  const versions = objectOr(block.versions);
  const names = Object.keys(versions).filter((name) => versions[name] === removedApiId);
  if (names.length === 0) return undefined;
  const kept = Object.fromEntries(Object.entries(versions).filter(([name]) => !names.includes(name)));
  const definition = {
    ...block,
    versions: kept,
    ...(names.includes(block.default as string) ? { default: block.name } : {}),
  };
  return {
    ...api,
    definition: { ...api.definition, definition },
    ...(api.oas ? { oas: oasWithoutVersion(api.oas, names) } : {}),
  };
}

function oasWithoutVersion(document: Fields, names: string[]): Fields {
  const extension = objectOr(document[GATEWAY_EXTENSION]);
  const info = objectOr(extension.info);
  const versioning = objectOr(info.versioning);
  if (!Array.isArray(versioning.versions)) return document;
  const versions = (versioning.versions as Fields[]).filter((entry) => !names.includes(entry.name as string));
  const fallback = names.includes(versioning.default as string) ? { default: versioning.name } : {};
  return {
    ...document,
    [GATEWAY_EXTENSION]: { ...extension, info: { ...info, versioning: { ...versioning, versions, ...fallback } } },
  };
}

function objectOr(value: unknown): Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {};
}

import type { ApiDefinition, ApiRecord } from '../../../contracts/apis/api-definition';
import type { Call } from '../../../lib/bus/call';
import { isGwError } from '../../../lib/errors';
import type { NewVersionQuery } from '../../../lib/openapi/oas-versions';
import type { GatewayView } from './gateway';
import { versionToCreate } from './version-query';

/**
 * `POST /gw/apis?base_api_id=…&new_version_name=…`: the new classic API becomes a version of the
 * base, whose versioning block (`definition`) gains it, as the reference's
 * ConfigureVersionDefinition does. The new API is removed again when the base can not be updated,
 * so nothing is half-stored.
 */
export async function createClassicMaybeVersion(
  view: GatewayView,
  call: Call,
  query: Record<string, unknown>,
  create: () => Promise<ApiRecord>,
): Promise<ApiRecord> {
  const asVersion = versionToCreate(view.loadedApis(), query);
  const created = await create();
  if (asVersion) {
    try {
      const { base, version } = asVersion;
      const named = typeof query.base_api_version_name === 'string' ? query.base_api_version_name.trim() : '';
      const definition = withVersion(base, version, named, created.api_definition.api_id);
      const updated = await call('apis.update', { id: base.api_id, api_definition: { ...base, definition } });
      await view.applyLocally(updated.api_definition);
    } catch (err) {
      await call('apis.remove', { id: created.api_definition.id });
      throw err;
    }
  }
  await view.applyLocally(created.api_definition);
  return created;
}

/**
 * The base's versioning block with the new version in it, renamed when the call names the base's
 * version (`base_api_version_name`), its defaults filled as the reference fills them.
 */
function withVersion(
  base: ApiDefinition,
  version: NewVersionQuery,
  baseVersionName: string,
  newApiId: string,
): Record<string, unknown> {
  const current = (base.definition ?? {}) as Record<string, unknown>;
  const text = (value: unknown, fallback: string) => (typeof value === 'string' && value !== '' ? value : fallback);
  const versions = typeof current.versions === 'object' && current.versions !== null ? current.versions : {};
  return {
    ...current,
    enabled: true,
    name: baseVersionName || text(current.name, version.baseVersionName),
    default: version.setDefault ? version.newVersionName : text(current.default, 'self'),
    location: text(current.location, 'header'),
    key: text(current.key, 'x-api-version'),
    base_id: base.api_id,
    versions: { ...versions, [version.newVersionName]: newApiId },
  };
}

/**
 * After a delete: the apis service has taken the deleted API out of the stored bases that listed
 * it as a version, classic and OAS alike (services/apis/lib/version-cleanup.ts). This node serves
 * those bases as now stored without waiting for their change events, so the next call sees them.
 * A base from a definition file is not stored, and stays as its file says.
 */
export async function refreshBasesOf(view: GatewayView, call: Call, removedApiId: string): Promise<void> {
  for (const base of view.loadedApis()) {
    const current = (base.definition ?? {}) as { versions?: Record<string, unknown> };
    const versions = typeof current.versions === 'object' && current.versions !== null ? current.versions : {};
    if (base.api_id === removedApiId || !Object.values(versions).includes(removedApiId)) continue;
    try {
      const stored = await call('apis.get', { id: base.api_id });
      await view.applyLocally(stored.api_definition);
    } catch (err) {
      if (!isGwError(err, 'GW_ERR_APIS_NOT_FOUND')) throw err;
    }
  }
}

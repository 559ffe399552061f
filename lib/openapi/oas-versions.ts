import { stringify } from 'yaml';
import type { ApiRecord } from '../../contracts/apis/api-definition';
import type { Call } from '../bus/call';
import { GwError } from '../errors';

const EXTENSION = 'x-gw-api-gateway';

export interface NewVersionQuery {
  baseApiId: string;
  newVersionName: string;
  /** the base API's own version name, when its versioning is switched on by this call */
  baseVersionName: string;
  setDefault: boolean;
}

/**
 * `?base_api_id=…&new_version_name=…` of `POST /api/apis/oas` (and `/gw/apis/oas`,
 * `/gw/apis/oas/import`), or undefined when the call creates a plain API.
 */
export function newVersionQuery(query: Record<string, unknown>): NewVersionQuery | undefined {
  const text = (name: string) => (typeof query[name] === 'string' ? query[name].trim() : '');
  if (text('base_api_id') === '') return undefined;
  if (text('new_version_name') === '')
    throw new GwError('GW_ERR_APIS_INVALID_OAS', 400, 'new_version_name is required with base_api_id');
  return {
    baseApiId: text('base_api_id'),
    newVersionName: text('new_version_name'),
    baseVersionName: text('base_api_version_name') || 'Default',
    setDefault: text('set_default') === 'true',
  };
}

/** What a new version changes in the base API's gateway extension. */
interface BaseInfo {
  id: string;
  versioning?: { enabled?: boolean; versions?: Array<{ name: string; id: string }> } & Record<string, unknown>;
}

/**
 * Creates a child version (`create`) and adds it to its base API (the reference's "new version"):
 * the base is read first in the caller's organisation (another organisation's base is not
 * found), and the child is removed again when the base refuses the new version, so nothing is
 * half-stored.
 */
export async function createVersion(
  call: Call,
  orgId: string | undefined,
  version: NewVersionQuery,
  create: () => Promise<ApiRecord>,
): Promise<{ created: ApiRecord; base: ApiRecord }> {
  const base = await call('apis.getOas', { id: version.baseApiId, org_scope: orgId });
  const created = await create();
  try {
    const { info } = base[EXTENSION] as { info: BaseInfo };
    const current =
      info.versioning?.enabled === true
        ? info.versioning
        : {
            enabled: true,
            name: version.baseVersionName,
            default: version.baseVersionName,
            location: 'header',
            key: 'x-api-version',
            versions: [],
          };
    const versions = [...(current.versions ?? []), { name: version.newVersionName, id: created.api_definition.api_id }];
    info.versioning = { ...current, versions, ...(version.setDefault ? { default: version.newVersionName } : {}) };
    const updated = await call('apis.updateOas', { id: info.id, org_scope: orgId, document_text: stringify(base) });
    return { created, base: updated };
  } catch (err) {
    await call('apis.remove', { id: created.api_definition.id, org_scope: orgId });
    throw err;
  }
}

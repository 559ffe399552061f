import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import { HttpProblem } from '../../../lib/http/problem';
import { newVersionQuery, type NewVersionQuery } from '../../../lib/openapi/oas-versions';

/**
 * The `?base_api_id=…&new_version_name=…` of a create on the gateway API, checked as the reference
 * gateway checks it: no `new_version_name` is 422, a base this node does not serve or one with no
 * version name of its own (and none given) is 400. Undefined when the call creates a plain API.
 */
export function versionToCreate(
  loadedApis: ApiDefinition[],
  query: Record<string, unknown>,
): { version: NewVersionQuery; base: ApiDefinition } | undefined {
  const text = (name: string) => (typeof query[name] === 'string' ? query[name].trim() : '');
  const baseId = text('base_api_id');
  if (baseId === '') return undefined;
  if (text('new_version_name') === '') throw new HttpProblem(422, 'The new version name is required');
  const base = loadedApis.find((api) => api.api_id === baseId);
  if (!base) throw new HttpProblem(400, `${baseId} is not a valid Base API version`);
  const ownName = (base.definition as { name?: unknown } | undefined)?.name;
  if (text('base_api_version_name') === '' && (typeof ownName !== 'string' || ownName === ''))
    throw new HttpProblem(400, `you need to provide a version name for the new Base API: ${baseId}`);
  return { version: newVersionQuery(query)!, base };
}

import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import type { ApisCreateParams } from '../../../contracts/apis/actions';

/** The gateway management API lives under /gw on the gateway port; no API may listen there. */
const RESERVED_PREFIX = '/gw';

/** `/foo/` and `/foo` are the same listen path; `/` stays `/`. */
export function normaliseListenPath(listenPath: string): string {
  const trimmed = listenPath.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

export function isReservedListenPath(listenPath: string): boolean {
  const normalised = normaliseListenPath(listenPath).toLowerCase();
  return normalised === RESERVED_PREFIX || normalised.startsWith(`${RESERVED_PREFIX}/`);
}

export function normaliseDomain(domain: string | undefined): string {
  return (domain ?? '').trim().toLowerCase();
}

/** The default version block the reference dashboard writes for an unversioned API. */
function defaultVersionData(): Record<string, unknown> {
  return {
    not_versioned: true,
    default_version: 'Default',
    versions: { Default: { name: 'Default', use_extended_paths: true } },
  };
}

/**
 * The stored definition: what the client sent, with the ids gw owns filled in and the defaults
 * a gateway needs. `active` defaults to true: an API created without it is served, which is
 * what people creating an API by hand expect.
 */
export function buildDefinition(
  input: ApisCreateParams['api_definition'],
  ids: { id: string; api_id: string; org_id: string },
): ApiDefinition {
  return {
    ...input,
    id: ids.id,
    api_id: ids.api_id,
    org_id: ids.org_id,
    name: input.name,
    active: input.active ?? true,
    use_keyless: input.use_keyless ?? false,
    version_data: input.version_data ?? defaultVersionData(),
    proxy: { ...input.proxy, strip_listen_path: input.proxy.strip_listen_path ?? false },
  };
}

import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import { middlewareLocations, pluginSource } from '../../../lib/plugin-source';
import { ApisErrors } from '../errors';

/**
 * Refuses a definition whose `custom_middleware` names code outside GW_PLUGINS_DIR and the
 * packages of GW_PLUGIN_PACKAGES, when it is saved (the gateway refuses it again when it loads).
 */
export function checkCustomMiddleware(definition: ApiDefinition, allowedPackages: readonly string[]): void {
  for (const { at, where } of middlewareLocations(definition.custom_middleware)) {
    const source = pluginSource(where, allowedPackages);
    if (source.kind === 'refused') throw ApisErrors.invalid(`${at}: ${source.reason}`);
  }
}

/**
 * The gw plugin SDK: declare a plugin with `definePlugin`, implement any of the hooks, and name
 * it in an API definition's `custom_middleware`. `./testkit` runs a plugin without a gateway.
 */
export { definePlugin, isPlugin, type GwPlugin } from './define-plugin';
export { PluginError, type PluginErrorCode } from './errors';
export { PLUGIN_HOOKS, SDK_VERSION, isHookName, type HookName } from './hooks';
export type * from './types';

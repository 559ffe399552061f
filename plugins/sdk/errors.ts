/** Why a plugin could not be defined or loaded; `code` is stable, the message says what to fix. */
export type PluginErrorCode =
  | 'GW_ERR_PLUGIN_INVALID'
  | 'GW_ERR_PLUGIN_UNKNOWN_HOOK'
  | 'GW_ERR_PLUGIN_SDK_VERSION'
  | 'GW_ERR_PLUGIN_NOT_FOUND'
  | 'GW_ERR_PLUGIN_NOT_ALLOWED'
  | 'GW_ERR_PLUGIN_HOOK_MISSING'
  | 'GW_ERR_PLUGIN_DRIVER';

export class PluginError extends Error {
  constructor(
    readonly code: PluginErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'PluginError';
  }
}

/**
 * The plugin hooks, in the order they run in a request; they are the sections of an API
 * definition's `custom_middleware`. This one list is the contract: the SDK's types, the
 * gateway's loader and the gateway's pipeline all derive from it.
 */
export const PLUGIN_HOOKS = ['pre', 'auth_check', 'post_key_auth', 'post', 'response'] as const;

export type HookName = (typeof PLUGIN_HOOKS)[number];

export function isHookName(name: string): name is HookName {
  return (PLUGIN_HOOKS as readonly string[]).includes(name);
}

/** The version of this SDK; a plugin declares the range it needs (`sdk: '^1.0.0'`). */
export const SDK_VERSION = '1.0.0';

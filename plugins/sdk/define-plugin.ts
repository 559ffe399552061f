import semver from 'semver';
import { PluginError } from './errors';
import { PLUGIN_HOOKS, SDK_VERSION, isHookName } from './hooks';
import type { PluginDefinition } from './types';

const PLUGIN = Symbol.for('gw.plugin');

export interface GwPlugin extends PluginDefinition {
  readonly [PLUGIN]: true;
}

/**
 * Declares a plugin. Checked here, so a mistake fails when the module loads rather than in a
 * request: the name must be set, every hook must be one of PLUGIN_HOOKS and a function, and
 * `sdk` must be a semver range this SDK satisfies.
 */
export function definePlugin(definition: PluginDefinition): GwPlugin {
  if (!definition || typeof definition.name !== 'string' || definition.name.trim() === '') {
    throw new PluginError('GW_ERR_PLUGIN_INVALID', 'a plugin needs a name');
  }
  const { name } = definition;
  if (typeof definition.sdk !== 'string' || semver.validRange(definition.sdk) === null) {
    throw new PluginError('GW_ERR_PLUGIN_INVALID', `plugin ${name}: sdk must be a semver range such as '^1.0.0'`);
  }
  if (!semver.satisfies(SDK_VERSION, definition.sdk)) {
    throw new PluginError(
      'GW_ERR_PLUGIN_SDK_VERSION',
      `plugin ${name} needs SDK ${definition.sdk}, this gateway provides ${SDK_VERSION}`,
    );
  }
  const hooks = definition.hooks ?? {};
  const names = Object.keys(hooks);
  if (names.length === 0) throw new PluginError('GW_ERR_PLUGIN_INVALID', `plugin ${name} implements no hook`);
  for (const hook of names) {
    if (!isHookName(hook)) {
      throw new PluginError(
        'GW_ERR_PLUGIN_UNKNOWN_HOOK',
        `plugin ${name}: unknown hook '${hook}'; hooks are ${PLUGIN_HOOKS.join(', ')}`,
      );
    }
    if (typeof (hooks as Record<string, unknown>)[hook] !== 'function') {
      throw new PluginError('GW_ERR_PLUGIN_INVALID', `plugin ${name}: hook '${hook}' must be a function`);
    }
  }
  return Object.freeze({ ...definition, hooks: { ...hooks }, [PLUGIN]: true as const });
}

export function isPlugin(value: unknown): value is GwPlugin {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[PLUGIN] === true;
}

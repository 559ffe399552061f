import { resolve } from 'node:path';
import { NOT_HOOK_KEYS, pluginSource } from '../../../../lib/plugin-source';
import { realPathWithin } from '../../../../lib/safe-path';
import { isPlugin, type GwPlugin } from '../../../../plugins/sdk/define-plugin';
import { PluginError } from '../../../../plugins/sdk/errors';
import { PLUGIN_HOOKS, isHookName, type HookName } from '../../../../plugins/sdk/hooks';

/** The plugins an API runs, per hook, in the order its definition lists them. */
export interface LoadedPlugins {
  pre: GwPlugin[];
  auth_check: GwPlugin | undefined;
  post_key_auth: GwPlugin[];
  post: GwPlugin[];
  response: GwPlugin[];
}

export const NO_PLUGINS: LoadedPlugins = Object.freeze({
  pre: [],
  auth_check: undefined,
  post_key_auth: [],
  post: [],
  response: [],
});

interface MiddlewareEntry {
  name?: string;
  path?: string;
  disabled?: boolean;
}

/** Where plugins may come from (GW_PLUGINS_DIR, GW_PLUGIN_PACKAGES). */
export interface PluginPlaces {
  /** the plugins folder; relative plugin paths resolve inside it, and only there */
  dir: string;
  /** package names the operator allows as plugin paths */
  packages: readonly string[];
}

/**
 * Loads the plugins an API's `custom_middleware` names. Each entry is `{name, path}`: `path` is a
 * module file relative to GW_PLUGINS_DIR (its real path, symlinks followed, must stay inside) or
 * a package listed in GW_PLUGIN_PACKAGES; anything else is refused before any code runs. The
 * module exports a plugin made with `definePlugin` (as its default export, as `name`, or as the
 * module itself). Anything wrong (an unknown hook, another driver, a refused location, a missing
 * module, an SDK mismatch, a plugin that does not implement the hook it is listed under) throws
 * a coded PluginError, so the API is not served half-configured.
 */
export function loadPlugins(customMiddleware: unknown, places: PluginPlaces): LoadedPlugins {
  if (!customMiddleware || typeof customMiddleware !== 'object') return NO_PLUGINS;
  const config = customMiddleware as Record<string, unknown>;
  const driver = config.driver;
  if (driver !== undefined && driver !== '' && driver !== 'node') {
    throw new PluginError(
      'GW_ERR_PLUGIN_DRIVER',
      `custom_middleware driver '${String(driver)}' is not supported; gw runs 'node' plugins`,
    );
  }
  const loaded: LoadedPlugins = { pre: [], auth_check: undefined, post_key_auth: [], post: [], response: [] };
  for (const [key, value] of Object.entries(config)) {
    if (NOT_HOOK_KEYS.has(key)) continue;
    if (!isHookName(key)) {
      throw new PluginError(
        'GW_ERR_PLUGIN_UNKNOWN_HOOK',
        `custom_middleware: unknown hook '${key}'; hooks are ${PLUGIN_HOOKS.join(', ')}`,
      );
    }
    const entries = (Array.isArray(value) ? value : value ? [value] : []) as MiddlewareEntry[];
    const plugins = entries
      .filter((entry) => entry && entry.disabled !== true && (entry.name || entry.path))
      .map((entry) => loadOne(entry, key, places));
    if (key === 'auth_check') {
      if (plugins.length > 1)
        throw new PluginError('GW_ERR_PLUGIN_INVALID', 'custom_middleware.auth_check names more than one plugin');
      loaded.auth_check = plugins[0];
    } else loaded[key] = plugins;
  }
  return loaded;
}

function loadOne(entry: MiddlewareEntry, hook: HookName, places: PluginPlaces): GwPlugin {
  const where = String(entry.path ?? entry.name ?? '');
  const module = requireModule(where, places);
  const candidates = [entry.name ? module?.[entry.name] : undefined, module?.default, module];
  const plugin = candidates.find(isPlugin);
  if (!plugin) {
    throw new PluginError(
      'GW_ERR_PLUGIN_INVALID',
      `${where} does not export a plugin made with definePlugin${entry.name ? ` (looked for '${entry.name}' and the default export)` : ''}`,
    );
  }
  if (entry.name && plugin.name !== entry.name) {
    throw new PluginError('GW_ERR_PLUGIN_INVALID', `${where} exports plugin '${plugin.name}', not '${entry.name}'`);
  }
  if (typeof plugin.hooks[hook] !== 'function') {
    throw new PluginError(
      'GW_ERR_PLUGIN_HOOK_MISSING',
      `plugin ${plugin.name} is listed under '${hook}' but does not implement that hook`,
    );
  }
  return plugin;
}

function requireModule(where: string, places: PluginPlaces): Record<string, unknown> {
  const source = pluginSource(where, places.packages);
  if (source.kind === 'refused') throw new PluginError('GW_ERR_PLUGIN_NOT_ALLOWED', source.reason);
  const dir = resolve(places.dir);
  let resolved: string;
  try {
    resolved =
      source.kind === 'package'
        ? require.resolve(source.name, { paths: [dir, process.cwd()] })
        : require.resolve(resolve(dir, source.path));
  } catch {
    const looked = source.kind === 'package' ? 'the installed packages' : dir;
    throw new PluginError('GW_ERR_PLUGIN_NOT_FOUND', `plugin module '${where}' not found (looked in ${looked})`);
  }
  if (source.kind === 'file') {
    // A symlink (or a package.json "main") inside the folder must not lead out of it.
    const real = realPathWithin(dir, resolved);
    if (real === undefined)
      throw new PluginError(
        'GW_ERR_PLUGIN_NOT_ALLOWED',
        `plugin path '${where}' leads outside the plugins folder (GW_PLUGINS_DIR)`,
      );
    resolved = real;
  }
  if (/\.[cm]?ts$/.test(resolved)) enableTypeScript();
  return require(resolved) as Record<string, unknown>;
}

let typeScriptEnabled = false;

/** TypeScript plugin files are compiled on load by tsx (already active under the test runner). */
function enableTypeScript(): void {
  if (typeScriptEnabled || require.extensions['.ts']) return;
  (require('tsx/cjs/api') as { register(): void }).register();
  typeScriptEnabled = true;
}

import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
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

export const NO_PLUGINS: LoadedPlugins = Object.freeze({ pre: [], auth_check: undefined, post_key_auth: [], post: [], response: [] });

interface MiddlewareEntry {
  name?: string;
  path?: string;
  disabled?: boolean;
}

/** custom_middleware keys of the reference format that are not hooks. */
const NOT_HOOKS = new Set(['driver', 'id_extractor', 'auth_check_enabled']);

/**
 * Loads the plugins an API's `custom_middleware` names. Each entry is `{name, path}`: `path` is a
 * module file (absolute, or relative to GW_PLUGINS_DIR) or an npm package, and the module
 * exports a plugin made with `definePlugin` (as its default export, as `name`, or as the module
 * itself). Anything wrong (an unknown hook, another driver, a missing module, an SDK mismatch, a
 * plugin that does not implement the hook it is listed under) throws a coded PluginError, so
 * the API is not served half-configured.
 */
export function loadPlugins(customMiddleware: unknown, pluginsDir: string): LoadedPlugins {
  if (!customMiddleware || typeof customMiddleware !== 'object') return NO_PLUGINS;
  const config = customMiddleware as Record<string, unknown>;
  const driver = config.driver;
  if (driver !== undefined && driver !== '' && driver !== 'node') {
    throw new PluginError('GW_ERR_PLUGIN_DRIVER', `custom_middleware driver '${String(driver)}' is not supported; gw runs 'node' plugins`);
  }
  const loaded: LoadedPlugins = { pre: [], auth_check: undefined, post_key_auth: [], post: [], response: [] };
  for (const [key, value] of Object.entries(config)) {
    if (NOT_HOOKS.has(key)) continue;
    if (!isHookName(key)) {
      throw new PluginError('GW_ERR_PLUGIN_UNKNOWN_HOOK', `custom_middleware: unknown hook '${key}'; hooks are ${PLUGIN_HOOKS.join(', ')}`);
    }
    const entries = (Array.isArray(value) ? value : value ? [value] : []) as MiddlewareEntry[];
    const plugins = entries.filter((entry) => entry && entry.disabled !== true && (entry.name || entry.path)).map((entry) => loadOne(entry, key, pluginsDir));
    if (key === 'auth_check') {
      if (plugins.length > 1) throw new PluginError('GW_ERR_PLUGIN_INVALID', 'custom_middleware.auth_check names more than one plugin');
      loaded.auth_check = plugins[0];
    } else loaded[key] = plugins;
  }
  return loaded;
}

function loadOne(entry: MiddlewareEntry, hook: HookName, pluginsDir: string): GwPlugin {
  const where = entry.path ?? entry.name ?? '';
  const module = requireModule(where, pluginsDir);
  const candidates = [entry.name ? module?.[entry.name] : undefined, module?.default, module];
  const plugin = candidates.find(isPlugin);
  if (!plugin) {
    throw new PluginError('GW_ERR_PLUGIN_INVALID', `${where} does not export a plugin made with definePlugin${entry.name ? ` (looked for '${entry.name}' and the default export)` : ''}`);
  }
  if (entry.name && plugin.name !== entry.name) {
    throw new PluginError('GW_ERR_PLUGIN_INVALID', `${where} exports plugin '${plugin.name}', not '${entry.name}'`);
  }
  if (typeof plugin.hooks[hook] !== 'function') {
    throw new PluginError('GW_ERR_PLUGIN_HOOK_MISSING', `plugin ${plugin.name} is listed under '${hook}' but does not implement that hook`);
  }
  return plugin;
}

function requireModule(where: string, pluginsDir: string): Record<string, unknown> {
  const isFile = where.startsWith('.') || isAbsolute(where) || existsSync(resolve(pluginsDir, where));
  const request = isFile ? (isAbsolute(where) ? where : resolve(pluginsDir, where)) : where;
  let resolved: string;
  try {
    resolved = require.resolve(request, { paths: [pluginsDir, process.cwd()] });
  } catch {
    throw new PluginError('GW_ERR_PLUGIN_NOT_FOUND', `plugin module '${where}' not found (looked in ${resolve(pluginsDir)} and the installed packages)`);
  }
  if (/\.[cm]?ts$/.test(resolved)) enableTypeScript();
  return require(resolved) as Record<string, unknown>;
}

let typeScriptEnabled = false;

/** TypeScript plugin files are compiled on load by tsx (already active under the test runner). */
function enableTypeScript(): void {
  if (typeScriptEnabled || require.extensions['.ts']) return;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('tsx/cjs/api') as { register(): void }).register();
  typeScriptEnabled = true;
}

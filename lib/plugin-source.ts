import { relativePathProblem } from './safe-path';

/**
 * Where a `custom_middleware` entry may load code from, checked when a definition is saved (apis)
 * and again when it is loaded (proxy): a path relative to GW_PLUGINS_DIR, or the exact name of
 * a package the operator listed in GW_PLUGIN_PACKAGES. A tenant never chooses a file elsewhere
 * on the node (an absolute path, `..`, /tmp, the gateway's own modules).
 */
export type PluginSource = { kind: 'package'; name: string } | { kind: 'file'; path: string };

export function pluginSource(
  where: string,
  allowedPackages: readonly string[],
): PluginSource | { kind: 'refused'; reason: string } {
  if (allowedPackages.includes(where)) return { kind: 'package', name: where };
  const problem = relativePathProblem(where);
  if (problem === undefined) return { kind: 'file', path: where };
  return {
    kind: 'refused',
    reason: `plugin path '${printable(where)}' ${problem}: a plugin is a path inside the plugins folder (GW_PLUGINS_DIR) or a package the operator allowed (GW_PLUGIN_PACKAGES)`,
  };
}

/** custom_middleware keys of the reference format that are not hooks. */
export const NOT_HOOK_KEYS: ReadonlySet<string> = new Set(['driver', 'id_extractor', 'auth_check_enabled']);

/**
 * Every module location a `custom_middleware` block names (`path`, else `name`, as the loader
 * reads it), disabled entries included (they may be enabled later), with where it sits.
 */
export function middlewareLocations(customMiddleware: unknown): Array<{ at: string; where: string }> {
  if (!customMiddleware || typeof customMiddleware !== 'object') return [];
  const out: Array<{ at: string; where: string }> = [];
  for (const [key, value] of Object.entries(customMiddleware as Record<string, unknown>)) {
    if (NOT_HOOK_KEYS.has(key)) continue;
    const entries = Array.isArray(value) ? value : value ? [value] : [];
    entries.forEach((entry: unknown, index) => {
      if (!entry || typeof entry !== 'object') return;
      const { path, name } = entry as { path?: unknown; name?: unknown };
      const where = path ?? name;
      if (where === undefined || where === '') return;
      out.push({
        at: Array.isArray(value) ? `custom_middleware.${key}[${index}]` : `custom_middleware.${key}`,
        where: typeof where === 'string' ? where : String(where),
      });
    });
  }
  return out;
}

function printable(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

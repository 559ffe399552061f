import { compileTenantPattern } from '../../../lib/patterns/tenant-pattern';
import { expandContextVars } from './context-vars';
import type { RequestContext } from './request-context';

interface PersistEntry {
  method?: string;
  path?: string;
  operation?: string;
  variables?: Record<string, unknown>;
}

export interface PersistedQuery {
  operation: string;
  /** the variables of this request: static values, `$path.<name>` and `$gw_context.*` filled in */
  variables(ctx: RequestContext): Record<string, unknown>;
}

/**
 * A `{name}` segment that is not a valid percent-encoding (`%zz`, a lone `%`, broken UTF-8).
 * The reference gateway's HTTP server refuses such a path with 400 before routing it.
 */
export const MALFORMED_PATH = Symbol('malformed path');

export type PersistedQueryLookup = (
  method: string,
  relativePath: string,
) => PersistedQuery | typeof MALFORMED_PATH | undefined;

/**
 * `extended_paths.persist_graphql` (docs/graphql.md#persisted-queries): a REST path (with
 * `{name}` segments) and method that run a fixed GraphQL operation upstream.
 */
export function compilePersistedQueries(entries: unknown, contextVars: boolean): PersistedQueryLookup | undefined {
  const list = (Array.isArray(entries) ? entries : []) as PersistEntry[];
  const rules = list
    .filter((entry) => typeof entry.operation === 'string' && typeof entry.path === 'string')
    .map((entry) => {
      const names: string[] = [];
      const withSlash = entry.path!.startsWith('/') ? entry.path! : `/${entry.path}`;
      const source = withSlash
        .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
        .replace(/\\?\{([^/{}]+)\\?\}/g, (_m, name: string) => {
          names.push(name);
          return '([^/]+)';
        });
      return {
        method: (entry.method ?? 'GET').toUpperCase(),
        pattern: compileTenantPattern(`^${source}/?$`),
        names,
        operation: entry.operation!,
        variables: entry.variables ?? {},
      };
    });
  if (rules.length === 0) return undefined;
  return (method, relativePath) => {
    for (const rule of rules) {
      if (rule.method !== method) continue;
      const match = rule.pattern.exec(relativePath);
      if (!match) continue;
      const segments = decodeSegments(rule.names, match);
      if (!segments) return MALFORMED_PATH;
      return {
        operation: rule.operation,
        variables: (ctx) =>
          Object.fromEntries(
            Object.entries(rule.variables).map(([name, value]) => [name, resolve(value, segments, ctx, contextVars)]),
          ),
      };
    }
    return undefined;
  };
}

function decodeSegments(names: string[], match: Array<string | undefined>): Record<string, string> | undefined {
  try {
    return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1] ?? '')]));
  } catch {
    return undefined; // URIError
  }
}

function resolve(value: unknown, segments: Record<string, string>, ctx: RequestContext, contextVars: boolean): unknown {
  if (typeof value !== 'string') return value;
  if (value.startsWith('$path.')) return segments[value.slice('$path.'.length)];
  if (contextVars && value.includes('$gw_context.')) return expandContextVars(value, ctx);
  return value;
}

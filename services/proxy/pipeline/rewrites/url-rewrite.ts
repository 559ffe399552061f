import { compileTenantPattern, type TenantPattern } from '../../../../lib/patterns/tenant-pattern';
import { contextVariable } from '../context-vars';
import type { RequestContext } from '../request-context';
import { compileTriggers, type CompiledTrigger, type TriggerGroups } from './triggers';

/**
 * One `extended_paths.url_rewrites` entry, as in the reference gateway: `{path, method,
 * match_pattern, rewrite_to, triggers}`. `match_pattern` (RE2) is matched against the path below
 * the listen path; when it does not match, the request is not rewritten. The first trigger
 * whose conditions hold gives its own `rewrite_to`, else the entry's applies. In the result,
 * `$1`…`$9` are the pattern's groups, `$gw_context.<name>` a context variable (and
 * `$gw_context.trigger-<n>-<name>-<i>` a group of the trigger that fired), `$gw_meta.<name>` a
 * field of the key's metadata.
 */
export interface UrlRewrite {
  /** the new URL (path and query, an absolute URL or a `gw://` loop), or undefined to leave the request as it is */
  rewrite(ctx: RequestContext, body: () => Promise<string>): Promise<string | undefined>;
  /** true when a trigger reads the request body (the body is then read, once) */
  readonly readsBody: boolean;
}

const REFERENCE = /\$(\d)|\$gw_context\.([A-Za-z0-9_.-]+)|\$gw_meta\.([A-Za-z0-9_.-]+)/g;

export function compileUrlRewrite(entry: Record<string, unknown>, ignoreCase: boolean): UrlRewrite | undefined {
  if (typeof entry.match_pattern !== 'string' || typeof entry.rewrite_to !== 'string') return undefined;
  const pattern: TenantPattern = compileTenantPattern(entry.match_pattern, { ignoreCase });
  const fallback = entry.rewrite_to;
  const triggers: CompiledTrigger[] = compileTriggers(entry.triggers);
  return {
    readsBody: triggers.some((trigger) => trigger.readsBody),
    async rewrite(ctx, body) {
      const groups = pattern.exec(ctx.relativePath);
      if (!groups) return undefined;
      for (const [index, trigger] of triggers.entries()) {
        const fired = await trigger.matches(ctx, body);
        if (fired) return expand(trigger.rewriteTo || fallback, groups, ctx, prefixed(fired, index));
      }
      return expand(fallback, groups, ctx, {});
    },
  };
}

function prefixed(groups: TriggerGroups, index: number): TriggerGroups {
  const out: TriggerGroups = {};
  for (const [name, value] of Object.entries(groups)) out[`trigger-${index}-${name}`] = value;
  return out;
}

function expand(
  template: string,
  groups: Array<string | undefined>,
  ctx: RequestContext,
  triggerGroups: TriggerGroups,
): string {
  return template.replace(
    REFERENCE,
    (_all, group: string | undefined, context: string | undefined, meta: string | undefined) => {
      if (group !== undefined) return groups[Number(group)] ?? '';
      if (context !== undefined) return triggerGroups[context] ?? contextVariable(ctx, context) ?? '';
      return metaValue(ctx, meta!);
    },
  );
}

export function metaValue(ctx: RequestContext, name: string): string {
  const meta = ctx.session?.meta_data;
  if (!meta || typeof meta !== 'object') return '';
  const value = (meta as Record<string, unknown>)[name];
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

import { compileTenantPattern, type TenantPattern } from '../../../../lib/patterns/tenant-pattern';
import { contextVariable } from '../context-vars';
import type { RequestContext } from '../request-context';
import { metaValue } from './url-rewrite';

/** Groups a trigger captured, by `<name>-<i>` (`X-Tenant-0`, `payload-1`). */
export type TriggerGroups = Record<string, string>;

export interface CompiledTrigger {
  rewriteTo: string;
  readsBody: boolean;
  /** the captured groups when the trigger fires, else undefined */
  matches(ctx: RequestContext, body: () => Promise<string>): Promise<TriggerGroups | undefined>;
}

interface Condition {
  /** the value tested, or undefined when absent */
  read(ctx: RequestContext, body: () => Promise<string>): Promise<string | undefined> | string | undefined;
  name: string;
  pattern: TenantPattern;
  /** `reverse: true`: the condition holds when the pattern does NOT match */
  reverse: boolean;
}

type Reader = (key: string) => Condition['read'];

/** The reference gateway's trigger option kinds and where each reads its value. */
const KINDS: Record<string, Reader> = {
  header_matches: (key) => (ctx) => joined(ctx.req.headers[key.toLowerCase()]),
  query_val_matches: (key) => (ctx) => new URLSearchParams(ctx.search).getAll(key).join(',') || undefined,
  path_part_matches: () => (ctx) => ctx.relativePath,
  session_meta_matches: (key) => (ctx) => metaValue(ctx, key) || undefined,
  request_context_matches: (key) => (ctx) => contextVariable(ctx, key),
};

/**
 * `triggers: [{on: "any"|"all", options: {header_matches, query_val_matches, path_part_matches,
 * session_meta_matches, request_context_matches, payload_matches}, rewrite_to}]`; each option
 * but `payload_matches` maps names to `{match_rx, reverse}`, `payload_matches` is one
 * `{match_rx, reverse}` over the request body.
 */
export function compileTriggers(raw: unknown): CompiledTrigger[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isObject).map((trigger) => {
    const options = isObject(trigger.options) ? trigger.options : {};
    const conditions: Condition[] = [];
    for (const [kind, reader] of Object.entries(KINDS)) {
      const named = options[kind];
      if (!isObject(named)) continue;
      for (const [key, spec] of Object.entries(named)) {
        if (isObject(spec) && typeof spec.match_rx === 'string') conditions.push(condition(key, reader(key), spec));
      }
    }
    const payload = options.payload_matches;
    const readsBody = isObject(payload) && typeof payload.match_rx === 'string';
    if (readsBody) conditions.push(condition('payload', (_ctx, body) => body(), payload));
    const all = trigger.on === 'all';
    return {
      rewriteTo: typeof trigger.rewrite_to === 'string' ? trigger.rewrite_to : '',
      readsBody,
      matches: (ctx, body) => evaluate(conditions, all, ctx, body),
    };
  });
}

function condition(name: string, read: Condition['read'], spec: Record<string, unknown>): Condition {
  return { name, read, pattern: compileTenantPattern(String(spec.match_rx)), reverse: spec.reverse === true };
}

async function evaluate(
  conditions: Condition[],
  all: boolean,
  ctx: RequestContext,
  body: () => Promise<string>,
): Promise<TriggerGroups | undefined> {
  if (conditions.length === 0) return undefined;
  const groups: TriggerGroups = {};
  let anyHeld = false;
  for (const cond of conditions) {
    const value = await cond.read(ctx, body);
    const found = value === undefined ? null : cond.pattern.exec(value);
    const holds = cond.reverse ? found === null : found !== null;
    if (holds && found) found.forEach((group, i) => (groups[`${cond.name}-${i}`] = group ?? ''));
    if (holds) anyHeld = true;
    else if (all) return undefined;
  }
  return anyHeld ? groups : undefined;
}

function joined(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

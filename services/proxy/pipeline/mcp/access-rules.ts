import type { McpPrimitiveRule, McpDefinition } from '../../../../contracts/apis/api-definition';
import type { McpAccessList, McpAccessRights } from '../../../../contracts/keys/session';
import { KIND_GROUP, type PrimitiveKind } from './primitive';

/** Whether the API lets a primitive be used at all (its `mcp.primitives` allow and block). */
export type ApiPrimitiveRules = (kind: PrimitiveKind, name: string) => { allowed: boolean; rule?: McpPrimitiveRule };

export function compileApiRules(settings: McpDefinition): ApiPrimitiveRules {
  const kinds = new Map<PrimitiveKind, { rules: Record<string, McpPrimitiveRule>; allowList: boolean }>();
  for (const kind of Object.keys(KIND_GROUP) as PrimitiveKind[]) {
    const rules = settings.primitives?.[KIND_GROUP[kind]] ?? {};
    kinds.set(kind, { rules, allowList: Object.values(rules).some((rule) => rule?.allow === true) });
  }
  return (kind, name) => {
    const { rules, allowList } = kinds.get(kind)!;
    const rule = Object.hasOwn(rules, name) ? rules[name] : undefined;
    if (rule?.block === true) return { allowed: false, rule };
    if (allowList && rule?.allow !== true) return { allowed: false, rule };
    return { allowed: true, rule };
  };
}

/**
 * A key's `mcp_access_rights` for one kind: patterns anchored at both ends (an exact name works
 * as written), blocked wins, a non-empty allowed list lets only its matches through. Compiled
 * once per access list object (a cached session is the same object on every request).
 */
const compiled = new WeakMap<McpAccessList, (name: string) => boolean>();

export function keyAllows(rights: McpAccessRights | undefined, kind: PrimitiveKind, name: string): boolean {
  const list = rights?.[KIND_GROUP[kind]];
  if (!list) return true;
  let check = compiled.get(list);
  if (!check) {
    check = compileAccessList(list);
    compiled.set(list, check);
  }
  return check(name);
}

function compileAccessList(list: McpAccessList): (name: string) => boolean {
  const blocked = (list.blocked ?? []).map(anchored);
  const allowed = (list.allowed ?? []).map(anchored);
  return (name) => {
    if (blocked.some((pattern) => pattern.test(name))) return false;
    return allowed.length === 0 || allowed.some((pattern) => pattern.test(name));
  };
}

/** A pattern that does not compile matches only itself, so a typo never opens everything. */
function anchored(pattern: string): RegExp {
  try {
    return new RegExp(`^(?:${pattern})$`);
  } catch {
    return new RegExp(`^${pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  }
}

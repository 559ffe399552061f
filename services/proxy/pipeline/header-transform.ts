import { expandContextVars, hasContextReference } from './context-vars';
import type { HeaderMap } from './forward-headers';
import type { RequestContext } from './request-context';

/**
 * A version's header changes (`global_headers` + `global_headers_remove`, and the response
 * pair): removals first, then the set values, as in the reference gateway. Values may hold
 * context variables when the API enables them.
 */
export interface HeaderTransform {
  remove: string[];
  set: Array<{ name: string; value: string; dynamic: boolean }>;
}

export function compileHeaderTransform(
  set: unknown,
  remove: unknown,
  contextVars: boolean,
): HeaderTransform | undefined {
  const removals = Array.isArray(remove)
    ? remove.filter((name): name is string => typeof name === 'string').map((name) => name.toLowerCase())
    : [];
  const values = Object.entries(set && typeof set === 'object' ? (set as Record<string, unknown>) : {}).map(
    ([name, value]) => ({
      name: name.toLowerCase(),
      value: String(value),
      dynamic: contextVars && hasContextReference(String(value)),
    }),
  );
  if (removals.length === 0 && values.length === 0) return undefined;
  return { remove: removals, set: values };
}

export function applyHeaderTransform(transform: HeaderTransform, headers: HeaderMap, ctx: RequestContext): void {
  for (const name of transform.remove) delete headers[name];
  for (const { name, value, dynamic } of transform.set) headers[name] = dynamic ? expandContextVars(value, ctx) : value;
}

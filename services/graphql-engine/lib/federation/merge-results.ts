/** Merges a subgraph's answer into the response tree: objects field by field, lists item by item. */
export function deepMerge(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const key of Object.keys(source)) {
    const incoming = source[key];
    const present = target[key];
    if (isObject(present) && isObject(incoming)) deepMerge(present, incoming);
    else if (Array.isArray(present) && Array.isArray(incoming) && present.length === incoming.length)
      mergeLists(present, incoming);
    else if (incoming !== undefined && !(incoming === null && present !== undefined && present !== null))
      target[key] = incoming;
  }
}

function mergeLists(present: unknown[], incoming: unknown[]): void {
  for (let i = 0; i < incoming.length; i++) {
    const a = present[i];
    const b = incoming[i];
    if (isObject(a) && isObject(b)) deepMerge(a, b);
    else if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) mergeLists(a, b);
    else present[i] = b;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export interface LocatedObject {
  value: Record<string, unknown>;
  path: Array<string | number>;
}

/** The objects at a response path (lists walked through), optionally of one `__typename`. */
export function objectsAt(
  root: Record<string, unknown>,
  path: string[],
  typeName: string | undefined,
): Array<Record<string, unknown>> {
  const found: Array<Record<string, unknown>> = [];
  const walk = (value: unknown, depth: number) => {
    if (value === null || value === undefined || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value) walk(item, depth);
      return;
    }
    const object = value as Record<string, unknown>;
    if (depth === path.length) {
      if (!typeName || object.__typename === undefined || object.__typename === typeName) found.push(object);
      return;
    }
    walk(object[path[depth]], depth + 1);
  };
  walk(root, 0);
  return found;
}

/** The same objects with their response paths: walked again only when an error needs them. */
export function locatedObjectsAt(
  root: Record<string, unknown>,
  path: string[],
  typeName: string | undefined,
): LocatedObject[] {
  const found: LocatedObject[] = [];
  const walk = (value: unknown, depth: number, at: Array<string | number>) => {
    if (value === null || value === undefined || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) walk(value[i], depth, [...at, i]);
      return;
    }
    const object = value as Record<string, unknown>;
    if (depth === path.length) {
      if (!typeName || object.__typename === undefined || object.__typename === typeName)
        found.push({ value: object, path: at });
      return;
    }
    walk(object[path[depth]], depth + 1, [...at, path[depth]]);
  };
  walk(root, 0, []);
  return found;
}

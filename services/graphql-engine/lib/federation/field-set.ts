import { Kind, parse, type SelectionSetNode } from 'graphql';

/** A `@key`, `@requires` or `@provides` selection (`"id organization { id }"`) as a tree of field names. */
export interface FieldSetNode {
  name: string;
  children: FieldSetNode[];
}

/** The response key the plan gives a field it adds where the client already uses the field's name for something else. */
export function addedAlias(name: string): string {
  return `__gw_${name}`;
}

const parsed = new Map<string, FieldSetNode[]>();

/** Parses a federation field set; results are kept, since a supergraph has few distinct ones. */
export function parseFieldSet(fields: string): FieldSetNode[] {
  let nodes = parsed.get(fields);
  if (!nodes) {
    const document = parse(`{ ${fields} }`);
    const operation = document.definitions[0] as { selectionSet: SelectionSetNode };
    nodes = toNodes(operation.selectionSet);
    if (parsed.size < 10_000) parsed.set(fields, nodes);
  }
  return nodes;
}

function toNodes(set: SelectionSetNode): FieldSetNode[] {
  return set.selections.flatMap((selection) =>
    selection.kind === Kind.FIELD
      ? [{ name: selection.name.value, children: selection.selectionSet ? toNodes(selection.selectionSet) : [] }]
      : [],
  );
}

/** The union of field sets, as a new tree. */
export function mergeFieldSets(...sets: Array<FieldSetNode[] | undefined>): FieldSetNode[] {
  const merged: FieldSetNode[] = [];
  for (const set of sets) {
    for (const node of set ?? []) {
      const existing = merged.find((m) => m.name === node.name);
      if (existing) existing.children = mergeFieldSets(existing.children, node.children);
      else merged.push({ name: node.name, children: mergeFieldSets(node.children) });
    }
  }
  return merged;
}

/** Picks a representation out of a response object: `__typename` plus the field set's values. */
export function pickFieldSet(
  source: Record<string, unknown>,
  set: FieldSetNode[],
  target: Record<string, unknown>,
): void {
  for (const node of set) {
    const aliased = source[addedAlias(node.name)];
    const value = aliased !== undefined ? aliased : source[node.name];
    if (node.children.length === 0 || value === null || typeof value !== 'object') target[node.name] = value;
    else if (Array.isArray(value)) target[node.name] = value.map((item) => pickNested(item, node.children));
    else target[node.name] = pickNested(value, node.children);
  }
}

function pickNested(value: unknown, set: FieldSetNode[]): unknown {
  if (value === null || typeof value !== 'object') return value;
  const picked: Record<string, unknown> = {};
  const typename = (value as Record<string, unknown>).__typename;
  if (typename !== undefined) picked.__typename = typename;
  pickFieldSet(value as Record<string, unknown>, set, picked);
  return picked;
}

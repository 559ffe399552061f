import type { JoinField, JoinType } from './join-directives';

/**
 * Who resolves what in a supergraph read from its `join__` directives, in `join__Graph` values:
 * the same facts gw's v1 composition records (`Supergraph.fields` and `.entities`).
 */

/** The subgraphs declaring a type, in supergraph order, once each. */
export function graphsOf(type: JoinType): string[] {
  return [...new Set(type.entries.map((entry) => entry.graph))];
}

/**
 * The subgraphs resolving a field themselves: those with a non-external `@join__field`, or,
 * for a field without one, every subgraph declaring its type (the join spec's default).
 */
export function ownersOf(type: JoinType, field: JoinField): string[] {
  if (field.entries.length === 0) return graphsOf(type);
  const owners = field.entries.filter((entry) => !entry.external && entry.graph !== undefined);
  return [...new Set(owners.map((entry) => entry.graph!))];
}

/** The keys of `type` in `graph` that an `_entities` fetch may use (`resolvable: false` ones may not). */
export function resolvableKeys(type: JoinType, graph: string): string[] {
  return type.entries
    .filter((entry) => entry.graph === graph && entry.key !== undefined && entry.resolvable)
    .map((entry) => entry.key!);
}

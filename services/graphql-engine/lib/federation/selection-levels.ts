import { getNamedType, type GraphQLOutputType, type GraphQLSchema } from 'graphql';
import { PlanningError, type ClientField, type ClientSelection } from './client-operation';
import type { FieldSetNode } from './field-set';

/** How the planner reads the client's selections, level by level. */

/** A required field the current subgraph can not select, as if the client had asked for it. */
export function asClientField(schema: GraphQLSchema, typeName: string, node: FieldSetNode): ClientField {
  const type = schema.getType(typeName) as
    { getFields?: () => Record<string, { type: GraphQLOutputType }> } | undefined;
  const definition = type?.getFields?.()[node.name];
  if (!definition)
    throw new PlanningError(`@requires names ${typeName}.${node.name}, which the supergraph does not have.`);
  const named = getNamedType(definition.type).name;
  const nested = node.children.length > 0;
  return {
    kind: 'field',
    responseKey: node.name,
    name: node.name,
    arguments: [],
    directives: [],
    type: definition.type,
    namedType: nested ? named : undefined,
    selections: nested ? node.children.map((child) => asClientField(schema, named, child)) : undefined,
  };
}

/**
 * One level of a selection as the planner wants it: fragments that always apply here (no type
 * condition or this type, no directives) spread into the level, and fields under one response
 * key merged, so each entity field of the level lands in one `_entities` fetch.
 */
export function mergeLevel(selections: ClientSelection[], typeName: string): ClientSelection[] {
  const merged: ClientSelection[] = [];
  const byKey = new Map<string, ClientField>();
  const visit = (list: ClientSelection[]) => {
    for (const selection of list) {
      if (selection.kind === 'fragment') {
        if ((!selection.typeCondition || selection.typeCondition === typeName) && selection.directives.length === 0)
          visit(selection.selections);
        else merged.push(selection);
        continue;
      }
      const existing = byKey.get(selection.responseKey);
      if (!existing || selection.directives.length > 0 || existing.directives.length > 0) {
        const copy = { ...selection, selections: selection.selections && [...selection.selections] };
        if (selection.directives.length === 0) byKey.set(selection.responseKey, copy);
        merged.push(copy);
      } else if (selection.selections) existing.selections = [...(existing.selections ?? []), ...selection.selections];
    }
  };
  visit(selections);
  return merged;
}

/** Root fields with the root's fragments flattened (they can only be on the root type). */
export function flattenRoot(selections: ClientSelection[], directives: ClientField['directives'] = []): ClientField[] {
  return selections.flatMap((s) => {
    if (s.kind === 'fragment') return flattenRoot(s.selections, [...directives, ...s.directives]);
    // a fragment's @skip/@include travels with its fields to the subgraph
    return directives.length > 0 ? [{ ...s, directives: [...directives, ...s.directives] }] : [s];
  });
}

import {
  GraphQLList,
  GraphQLNonNull,
  isAbstractType,
  isLeafType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import type { ClientField, ClientOperation, ClientSelection } from './client-operation';
import type { GraphqlError } from './subgraph-client';
import { isIncluded } from './conditions';

/** Collected fields per selection list (owned by a cached plan) and object type. */
const collectedFields = new WeakMap<ClientSelection[], Map<string, Map<string, ClientField[]>>>();

/** A non-null field that is null: its parent becomes null (GraphQL's null propagation). */
const INVALID = Symbol('invalid');

/**
 * The client's response from the merged tree: exactly the fields the client selected, in its
 * order and under its aliases (fields the plan added for keys and `@requires` dropped),
 * `@skip`/`@include` applied, a null in a non-null field propagated to the nearest nullable parent.
 */
export function shapeResponse(
  schema: GraphQLSchema,
  operation: ClientOperation,
  merged: Record<string, unknown>,
  variables: Record<string, unknown>,
  errors: GraphqlError[],
): Record<string, unknown> | null {
  const shaper = new Shaper(schema, variables, errors);
  const data = shaper.object(merged, operation.rootType, operation.selections, []);
  return data === INVALID ? null : data;
}

class Shaper {
  constructor(
    private readonly schema: GraphQLSchema,
    private readonly variables: Record<string, unknown>,
    private readonly errors: GraphqlError[],
  ) {}

  object(
    source: Record<string, unknown>,
    typeName: string,
    selections: ClientSelection[],
    path: Array<string | number>,
  ): Record<string, unknown> | typeof INVALID {
    const shaped: Record<string, unknown> = {};
    for (const [key, fields] of this.collected(typeName, selections)) {
      const field = fields[0];
      if (field.name === '__typename') {
        shaped[key] = typeName;
        continue;
      }
      const selectionsOfKey = fields.length === 1 ? field.selections : fields.flatMap((f) => f.selections ?? []);
      const value = this.value(source[key], field.type!, selectionsOfKey, [...path, key], field);
      if (value === INVALID) return INVALID;
      shaped[key] = value;
    }
    return shaped;
  }

  private value(
    value: unknown,
    type: GraphQLOutputType,
    selections: ClientSelection[] | undefined,
    path: Array<string | number>,
    field: ClientField,
  ): unknown {
    if (type instanceof GraphQLNonNull) {
      const inner = this.value(value, type.ofType, selections, path, field);
      if (inner === null || inner === undefined) {
        if (!this.errors.some((e) => isPrefix(e.path, path)))
          this.errors.push({ message: `Cannot return null for non-nullable field ${field.name}.`, path });
        return INVALID;
      }
      return inner;
    }
    if (value === null || value === undefined) return null;
    if (type instanceof GraphQLList) {
      if (!Array.isArray(value)) return null;
      const items = value.map((item, i) => this.value(item, type.ofType, selections, [...path, i], field));
      return items.includes(INVALID) ? null : items;
    }
    if (isLeafType(type) || !selections) return value;
    if (typeof value !== 'object') return null;
    const object = value as Record<string, unknown>;
    const concrete = typeof object.__typename === 'string' ? object.__typename : (type as { name: string }).name;
    const shaped = this.object(object, concrete, selections, path);
    return shaped === INVALID ? null : shaped;
  }

  /**
   * The fields of a selection for one type. Without `@skip`/`@include` they depend on nothing
   * else, so they are kept with the (cached) plan's selection and collected once.
   */
  private collected(typeName: string, selections: ClientSelection[]): Map<string, ClientField[]> {
    let byType = collectedFields.get(selections);
    const known = byType?.get(typeName);
    if (known) return known;
    const state = { conditional: false };
    const fields = this.collect(typeName, selections, new Map(), state);
    if (!state.conditional) {
      if (!byType) collectedFields.set(selections, (byType = new Map()));
      byType.set(typeName, fields);
    }
    return fields;
  }

  /** Fields that apply to an object of `typeName`, grouped by response key, in order. */
  private collect(
    typeName: string,
    selections: ClientSelection[],
    into: Map<string, ClientField[]>,
    state: { conditional: boolean },
  ): Map<string, ClientField[]> {
    for (const selection of selections) {
      if (selection.directives.length > 0) state.conditional = true;
      if (!this.included(selection.directives)) continue;
      if (selection.kind === 'fragment') {
        if (!selection.typeCondition || this.applies(selection.typeCondition, typeName))
          this.collect(typeName, selection.selections, into, state);
        continue;
      }
      const list = into.get(selection.responseKey);
      if (list) list.push(selection);
      else into.set(selection.responseKey, [selection]);
    }
    return into;
  }

  private applies(condition: string, typeName: string): boolean {
    if (condition === typeName) return true;
    const abstract = this.schema.getType(condition);
    const concrete = this.schema.getType(typeName);
    return Boolean(
      abstract &&
      concrete &&
      isAbstractType(abstract) &&
      'getInterfaces' in concrete &&
      this.schema.isSubType(abstract, concrete as never),
    );
  }

  private included(directives: ClientField['directives']): boolean {
    return directives.length === 0 || isIncluded(directives, this.variables);
  }
}

/** Whether an error already explains this null: it is at this path, above it, or below it. */
function isPrefix(errorPath: Array<string | number> | undefined, path: Array<string | number>): boolean {
  if (!errorPath) return false;
  const common = Math.min(errorPath.length, path.length);
  for (let i = 0; i < common; i++) if (errorPath[i] !== path[i]) return false;
  return true;
}

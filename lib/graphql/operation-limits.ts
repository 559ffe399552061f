import {
  Kind,
  getNullableType,
  isListType,
  isCompositeType,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/** How much work one operation may ask of a server that executes it. */
export interface OperationLimits {
  /** nested selection sets below the operation (`{ a { b } }` is 2) */
  maxDepth: number;
  /** list fields nested in list fields along one path (`types { fields { args } }` is 3) */
  maxListNesting: number;
  /** fields selected in all, each fragment counted every time it is spread */
  maxFields: number;
  /** fields at the root of the operation, aliases included */
  maxRootFields: number;
}

export interface LimitBreach {
  /** which limit */
  limit: keyof OperationLimits;
  message: string;
}

interface Walk {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  limits: OperationLimits;
  fields: number;
  rootFields: number;
}

/**
 * Measures a validated operation against the limits, fragments seen through (at the depth they
 * are spread). Stops at the first limit passed, so the walk itself is bounded by the limits
 * however the fragments multiply. Validation has already refused fragment cycles.
 */
export function checkOperationLimits(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragmentList: readonly FragmentDefinitionNode[],
  limits: OperationLimits,
): LimitBreach | undefined {
  const root =
    operation.operation === 'query'
      ? schema.getQueryType()
      : operation.operation === 'mutation'
        ? schema.getMutationType()
        : schema.getSubscriptionType();
  if (!root) return undefined;
  const walk: Walk = {
    schema,
    fragments: new Map(fragmentList.map((f) => [f.name.value, f])),
    limits,
    fields: 0,
    rootFields: 0,
  };
  return visitSet(walk, operation.selectionSet, root, 1, 0);
}

function visitSet(
  walk: Walk,
  set: SelectionSetNode,
  type: GraphQLCompositeType,
  depth: number,
  lists: number,
): LimitBreach | undefined {
  const { limits } = walk;
  if (depth > limits.maxDepth)
    return { limit: 'maxDepth', message: `The operation is nested more than ${limits.maxDepth} levels deep` };
  for (const selection of set.selections) {
    let breach: LimitBreach | undefined;
    if (selection.kind === Kind.FIELD) {
      if (++walk.fields > limits.maxFields)
        return {
          limit: 'maxFields',
          message: `The operation selects more than ${limits.maxFields} fields (fragments counted each time they are spread)`,
        };
      if (depth === 1 && ++walk.rootFields > limits.maxRootFields)
        return {
          limit: 'maxRootFields',
          message: `The operation selects more than ${limits.maxRootFields} root fields (aliases included)`,
        };
      if (!selection.selectionSet) continue;
      const field = 'getFields' in type ? type.getFields()[selection.name.value] : undefined;
      const nullable = field ? getNullableType(field.type) : undefined;
      const isList = nullable !== undefined && isListType(nullable);
      if (isList && lists + 1 > limits.maxListNesting)
        return {
          limit: 'maxListNesting',
          message: `The operation nests lists more than ${limits.maxListNesting} levels deep`,
        };
      const named = field ? namedComposite(field.type) : undefined;
      // Introspection fields (__schema, __type) are not in getFields(); their type is looked up by name.
      const next = named ?? introspectionType(walk.schema, selection.name.value) ?? type;
      breach = visitSet(walk, selection.selectionSet, next, depth + 1, lists + (isList ? 1 : 0));
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      breach = visitSet(
        walk,
        selection.selectionSet,
        conditionType(walk.schema, selection.typeCondition?.name.value) ?? type,
        depth,
        lists,
      );
    } else {
      const fragment = walk.fragments.get(selection.name.value);
      if (fragment)
        breach = visitSet(
          walk,
          fragment.selectionSet,
          conditionType(walk.schema, fragment.typeCondition.name.value) ?? type,
          depth,
          lists,
        );
    }
    if (breach) return breach;
  }
  return undefined;
}

function namedComposite(type: unknown): GraphQLCompositeType | undefined {
  let current = type as { ofType?: unknown };
  while (current && 'ofType' in current && current.ofType) current = current.ofType;
  return isCompositeType(current) ? current : undefined;
}

function conditionType(schema: GraphQLSchema, name: string | undefined): GraphQLCompositeType | undefined {
  const type = name ? schema.getType(name) : undefined;
  return type && isCompositeType(type) ? type : undefined;
}

function introspectionType(schema: GraphQLSchema, field: string): GraphQLCompositeType | undefined {
  if (field === '__schema') return conditionType(schema, '__Schema');
  if (field === '__type') return conditionType(schema, '__Type');
  return undefined;
}

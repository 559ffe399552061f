import {
  Kind,
  TypeInfo,
  getNamedType,
  parse,
  validate,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

export interface FieldUse {
  type: string;
  field: string;
}

/** What the gateway needs to know of one query text, worked out once and cached. */
export interface AnalysedOperation {
  /** GraphQL errors of parsing and validation; empty when the query is valid */
  errors: Array<{ message: string; locations?: ReadonlyArray<{ line: number; column: number }> }>;
  /** nesting depth below each root field of the operation, by the root field's name */
  depthByRootField: Map<string, number>;
  /** every (parent type, field) the operation selects, fragments included */
  fields: FieldUse[];
  /** whether it asks for `__schema` or `__type` */
  introspection: boolean;
  /** the parsed query, kept only for APIs whose operations the engine executes itself */
  document?: DocumentNode;
}

/**
 * Parses and validates a query against the API's schema and measures it. Depth is the number
 * of nested selection sets (`{ a { b } }` is 2); fragments count at the depth they are spread.
 */
export function analyseOperation(
  schema: GraphQLSchema,
  query: string,
  operationName: string | undefined,
  keepDocument = false,
): AnalysedOperation {
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch (err) {
    const error = err as { message: string; locations?: Array<{ line: number; column: number }> };
    return invalid([{ message: error.message, locations: error.locations }]);
  }
  const errors = validate(schema, document);
  if (errors.length > 0) return invalid(errors.map((e) => ({ message: e.message, locations: e.locations })));
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
  if (!operation || (!operationName && operations.length > 1)) {
    return invalid([
      {
        message: operationName
          ? `Unknown operation named "${operationName}".`
          : 'Must provide operation name if query contains multiple operations.',
      },
    ]);
  }
  const fragments = new Map(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((f) => [f.name.value, f]),
  );
  const depthByRootField = new Map<string, number>();
  let introspection = false;
  for (const selection of rootFields(operation.selectionSet, fragments)) {
    const name = selection.name.value;
    if (name === '__schema' || name === '__type') introspection = true;
    const depth = 1 + selectionDepth(selection.selectionSet, fragments, new Set());
    depthByRootField.set(name, Math.max(depthByRootField.get(name) ?? 0, depth));
  }
  return {
    errors: [],
    depthByRootField,
    fields: fieldUses(schema, document),
    introspection,
    document: keepDocument ? document : undefined,
  };
}

function invalid(errors: AnalysedOperation['errors']): AnalysedOperation {
  return { errors, depthByRootField: new Map(), fields: [], introspection: false };
}

/** The root fields of an operation, through fragments and inline fragments. */
function rootFields(
  set: SelectionSetNode,
  fragments: Map<string, FragmentDefinitionNode>,
): Array<{ name: { value: string }; selectionSet?: SelectionSetNode }> {
  const out: Array<{ name: { value: string }; selectionSet?: SelectionSetNode }> = [];
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) out.push(selection);
    else if (selection.kind === Kind.INLINE_FRAGMENT) out.push(...rootFields(selection.selectionSet, fragments));
    else {
      const fragment = fragments.get(selection.name.value);
      if (fragment) out.push(...rootFields(fragment.selectionSet, fragments));
    }
  }
  return out;
}

function selectionDepth(
  set: SelectionSetNode | undefined,
  fragments: Map<string, FragmentDefinitionNode>,
  visiting: Set<string>,
): number {
  if (!set) return 0;
  let deepest = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD)
      deepest = Math.max(
        deepest,
        selection.selectionSet ? 1 + selectionDepth(selection.selectionSet, fragments, visiting) : 1,
      );
    else if (selection.kind === Kind.INLINE_FRAGMENT)
      deepest = Math.max(deepest, selectionDepth(selection.selectionSet, fragments, visiting));
    else if (!visiting.has(selection.name.value)) {
      const fragment = fragments.get(selection.name.value);
      if (fragment)
        deepest = Math.max(
          deepest,
          selectionDepth(fragment.selectionSet, fragments, new Set([...visiting, selection.name.value])),
        );
    }
  }
  return deepest;
}

/** Every field the document selects, with the type it is selected on (aliases and fragments seen through). */
function fieldUses(schema: GraphQLSchema, document: DocumentNode): FieldUse[] {
  const typeInfo = new TypeInfo(schema);
  const uses: FieldUse[] = [];
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const parent = typeInfo.getParentType();
        if (parent && !node.name.value.startsWith('__'))
          uses.push({ type: getNamedType(parent).name, field: node.name.value });
      },
    }),
  );
  return uses;
}

import {
  getNamedType,
  isCompositeType,
  Kind,
  parse,
  type ArgumentNode,
  type DirectiveNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type VariableDefinitionNode,
} from 'graphql';

/** A field of the client's operation, with the type the supergraph gives it. */
export interface ClientField {
  kind: 'field';
  responseKey: string;
  name: string;
  arguments: readonly ArgumentNode[];
  directives: readonly DirectiveNode[];
  /** the field's type in the supergraph schema; undefined for `__typename` */
  type?: GraphQLOutputType;
  /** the named type of `type` when it has fields (object, interface, union) */
  namedType?: string;
  selections?: ClientSelection[];
}

/** An inline fragment or an expanded fragment spread. */
export interface ClientFragment {
  kind: 'fragment';
  typeCondition?: string;
  directives: readonly DirectiveNode[];
  selections: ClientSelection[];
}

export type ClientSelection = ClientField | ClientFragment;

export interface ClientOperation {
  operation: 'query' | 'mutation' | 'subscription';
  rootType: string;
  variableDefinitions: readonly VariableDefinitionNode[];
  selections: ClientSelection[];
}

/** Thrown for an operation the planner can not split (no such operation, a field no subgraph resolves). */
export class PlanningError extends Error {}

/**
 * The client's operation as a tree of fields typed by the supergraph schema, fragment spreads
 * expanded into inline fragments, so the planner and the response shaper never look at the
 * document again. The operation is assumed valid (the API's gate validated it first).
 */
export function readClientOperation(
  schema: GraphQLSchema,
  query: string,
  operationName: string | undefined,
): ClientOperation {
  const document = parse(query);
  const fragments = new Map<string, FragmentDefinitionNode>();
  const operations: OperationDefinitionNode[] = [];
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    if (definition.kind === Kind.OPERATION_DEFINITION) operations.push(definition);
  }
  const operation = operationName
    ? operations.find((o) => o.name?.value === operationName)
    : operations.length === 1
      ? operations[0]
      : undefined;
  if (!operation)
    throw new PlanningError(
      operationName
        ? `Unknown operation named "${operationName}".`
        : 'Must provide operation name if query contains multiple operations.',
    );
  const root = schema.getRootType(operation.operation);
  if (!root) throw new PlanningError(`The schema has no ${operation.operation} type.`);
  return {
    operation: operation.operation,
    rootType: root.name,
    variableDefinitions: operation.variableDefinitions ?? [],
    selections: readSelections(schema, fragments, root.name, operation.selectionSet),
  };
}

function readSelections(
  schema: GraphQLSchema,
  fragments: Map<string, FragmentDefinitionNode>,
  typeName: string,
  set: SelectionSetNode,
): ClientSelection[] {
  const selections: ClientSelection[] = [];
  for (const node of set.selections) {
    if (node.kind === Kind.FIELD) {
      selections.push(readField(schema, fragments, typeName, node));
      continue;
    }
    const fragment = node.kind === Kind.FRAGMENT_SPREAD ? fragments.get(node.name.value) : node;
    if (!fragment) throw new PlanningError(`Unknown fragment "${(node as { name: { value: string } }).name.value}".`);
    const condition = fragment.typeCondition?.name.value;
    selections.push({
      kind: 'fragment',
      typeCondition: condition,
      directives: node.directives ?? [],
      selections: readSelections(schema, fragments, condition ?? typeName, fragment.selectionSet),
    });
  }
  return selections;
}

function readField(
  schema: GraphQLSchema,
  fragments: Map<string, FragmentDefinitionNode>,
  typeName: string,
  node: FieldNode,
): ClientField {
  const field: ClientField = {
    kind: 'field',
    responseKey: node.alias?.value ?? node.name.value,
    name: node.name.value,
    arguments: node.arguments ?? [],
    directives: node.directives ?? [],
  };
  if (field.name === '__typename') return field;
  const parent = schema.getType(typeName) as
    { getFields?: () => Record<string, { type: GraphQLOutputType }> } | undefined;
  const definition =
    field.name === '__schema'
      ? { type: schema.getType('__Schema') }
      : field.name === '__type'
        ? { type: schema.getType('__Type') }
        : parent?.getFields?.()[field.name];
  if (!definition?.type) throw new PlanningError(`Cannot query field "${field.name}" on type "${typeName}".`);
  field.type = definition.type as GraphQLOutputType;
  const named = getNamedType(field.type);
  if (isCompositeType(named) && node.selectionSet) {
    field.namedType = named.name;
    field.selections = readSelections(schema, fragments, named.name, node.selectionSet);
  }
  return field;
}

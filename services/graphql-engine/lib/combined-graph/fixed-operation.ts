import {
  Kind,
  getNamedType,
  isEnumType,
  parse,
  print,
  typeFromAST,
  visit,
  type FieldNode,
  type GraphQLSchema,
  type NamedTypeNode,
  type OperationDefinitionNode,
  type TypeNode,
  type ValueNode,
  type VariableDefinitionNode,
} from 'graphql';

/**
 * A GraphQL data source's own operation (`has_operation`, `operation`, `variables`), when it can
 * be batched: one query, no fragments. Its variables (templated from the parent object or the
 * arguments) are written into the fields as literals, so the calls of N parents become N
 * aliased fields of one upstream query, and identical ones one field.
 */
export class FixedQuery {
  private constructor(
    private readonly fields: readonly FieldNode[],
    private readonly definitions: ReadonlyMap<string, VariableDefinitionNode>,
    private readonly schema: GraphQLSchema,
  ) {}

  /** The batchable form of an operation text, or undefined (a mutation, fragments, several operations, not parsable). */
  static of(text: string, schema: GraphQLSchema): FixedQuery | undefined {
    let operations: OperationDefinitionNode[];
    try {
      const document = parse(text);
      if (document.definitions.some((d) => d.kind !== Kind.OPERATION_DEFINITION)) return undefined;
      operations = document.definitions as OperationDefinitionNode[];
    } catch {
      return undefined;
    }
    const [operation] = operations;
    if (operations.length !== 1 || operation.operation !== 'query') return undefined;
    const fields = operation.selectionSet.selections;
    if (fields.some((s) => s.kind !== Kind.FIELD)) return undefined;
    const definitions = new Map((operation.variableDefinitions ?? []).map((d) => [d.variable.name.value, d]));
    return new FixedQuery(fields as FieldNode[], definitions, schema);
  }

  /** Each root field with the variables written in: `[response key, field text]`. */
  fieldsWith(values: Record<string, unknown>): Array<[string, string]> {
    return this.fields.map((field) => {
      const filled = visit(field, {
        Variable: (node) => {
          const definition = this.definitions.get(node.name.value);
          if (!(node.name.value in values) && definition?.defaultValue) return definition.defaultValue;
          return literal(values[node.name.value], definition?.type, this.schema);
        },
      });
      const { alias: _alias, ...unaliased } = filled;
      return [(field.alias ?? field.name).value, print(unaliased)];
    });
  }
}

/** A JSON value as a GraphQL literal; a string for an enum-typed variable becomes the enum value. */
function literal(value: unknown, type: TypeNode | undefined, schema: GraphQLSchema): ValueNode {
  if (value === null || value === undefined) return { kind: Kind.NULL };
  const inner = type?.kind === Kind.NON_NULL_TYPE ? type.type : type;
  if (Array.isArray(value))
    return {
      kind: Kind.LIST,
      values: value.map((item) => literal(item, inner?.kind === Kind.LIST_TYPE ? inner.type : undefined, schema)),
    };
  if (typeof value === 'object') {
    const fields = Object.entries(value as Record<string, unknown>).map(([name, item]) => ({
      kind: Kind.OBJECT_FIELD as const,
      name: { kind: Kind.NAME as const, value: name },
      value: literal(item, undefined, schema),
    }));
    return { kind: Kind.OBJECT, fields };
  }
  if (typeof value === 'boolean') return { kind: Kind.BOOLEAN, value };
  if (typeof value === 'number')
    return Number.isInteger(value)
      ? { kind: Kind.INT, value: String(value) }
      : { kind: Kind.FLOAT, value: String(value) };
  const named = inner ? typeFromAST(schema, namedTypeOf(inner)) : undefined;
  if (named && isEnumType(getNamedType(named))) return { kind: Kind.ENUM, value: String(value) };
  return { kind: Kind.STRING, value: String(value) };
}

function namedTypeOf(type: TypeNode): NamedTypeNode {
  return type.kind === Kind.NAMED_TYPE ? type : namedTypeOf(type.type);
}

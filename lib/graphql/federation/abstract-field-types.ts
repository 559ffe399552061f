import {
  Kind,
  parse,
  print,
  visit,
  type ConstArgumentNode,
  type ConstDirectiveNode,
  type DocumentNode,
  type FieldDefinitionNode,
  type TypeNode,
} from 'graphql';

/** A subgraph as composed: its name and parsed SDL. */
export interface ComposedService {
  name: string;
  typeDefs: DocumentNode;
}

/** The output of a Federation 2 composition this module corrects. */
export interface Federation2Documents {
  supergraphSdl: string;
  publicDocumentNode: DocumentNode;
}

/** A field whose subgraphs return an abstract type in some and members of it in others. */
interface WidenedField {
  abstractType: string;
  /** each declaring subgraph's own type of the field, as written there (`Book`, `Media!`) */
  typeBySubgraph: Map<string, string>;
}

/**
 * Federation 2 accepts a shared field whose subgraphs disagree on its output type when one of
 * them returns a union or interface and the others return members of it (`book: Book` in one,
 * `book: Media` in another). Apollo's composition gives the supergraph field the abstract type
 * and records each subgraph's own type with `@join__field(type:)`, so clients may select every
 * member and the planner sends each subgraph only what its type allows.
 * @theguild/federation-composition 0.27.0 accepts these subgraphs but keeps one subgraph's type
 * (`Book`), so a client's `... on Song` there is refused as invalid. This restores Apollo's
 * result in the supergraph SDL and in the client schema; composition is otherwise untouched, and
 * a supergraph without such a field is returned as it came (its SDL not even parsed).
 */
export function widenAbstractFieldTypes(
  services: readonly ComposedService[],
  composed: Federation2Documents,
): Federation2Documents {
  const widened = widenedFields(services);
  if (widened.size === 0) return composed;
  const supergraph = parse(composed.supergraphSdl);
  const graphOf = graphEnumValues(supergraph);
  return {
    supergraphSdl: print(retypeFields(supergraph, widened, graphOf)),
    publicDocumentNode: retypeFields(composed.publicDocumentNode, widened, undefined),
  };
}

/** The fields to widen, by coordinate (`Viewer.book`). */
function widenedFields(services: readonly ComposedService[]): Map<string, WidenedField> {
  const declared = new Map<string, Map<string, string>>();
  const possibleTypes = new Map<string, Set<string>>();
  const addPossible = (abstractType: string, member: string) => {
    let members = possibleTypes.get(abstractType);
    if (!members) possibleTypes.set(abstractType, (members = new Set()));
    members.add(member);
  };
  for (const service of services) {
    for (const definition of service.typeDefs.definitions) {
      switch (definition.kind) {
        case Kind.UNION_TYPE_DEFINITION:
        case Kind.UNION_TYPE_EXTENSION:
          for (const member of definition.types ?? []) addPossible(definition.name.value, member.name.value);
          // a union without members still marks its name as abstract
          if (!possibleTypes.has(definition.name.value)) possibleTypes.set(definition.name.value, new Set());
          break;
        case Kind.OBJECT_TYPE_DEFINITION:
        case Kind.OBJECT_TYPE_EXTENSION:
        case Kind.INTERFACE_TYPE_DEFINITION:
        case Kind.INTERFACE_TYPE_EXTENSION:
          if (definition.kind === Kind.INTERFACE_TYPE_DEFINITION || definition.kind === Kind.INTERFACE_TYPE_EXTENSION)
            if (!possibleTypes.has(definition.name.value)) possibleTypes.set(definition.name.value, new Set());
          for (const implemented of definition.interfaces ?? [])
            addPossible(implemented.name.value, definition.name.value);
          for (const field of definition.fields ?? []) {
            const coordinate = `${definition.name.value}.${field.name.value}`;
            let bySubgraph = declared.get(coordinate);
            if (!bySubgraph) declared.set(coordinate, (bySubgraph = new Map()));
            bySubgraph.set(service.name, print(field.type));
          }
          break;
        default:
          break;
      }
    }
  }
  const widened = new Map<string, WidenedField>();
  for (const [coordinate, typeBySubgraph] of declared) {
    const abstractType = commonAbstractType([...typeBySubgraph.values()], possibleTypes);
    if (abstractType) widened.set(coordinate, { abstractType, typeBySubgraph });
  }
  return widened;
}

/**
 * The one union or interface among the types whose members all the other types are, with the
 * same lists around each; undefined when the types agree or do not relate so.
 */
function commonAbstractType(types: string[], possibleTypes: Map<string, Set<string>>): string | undefined {
  const named = new Set(types.map(namedTypeOf));
  if (named.size < 2) return undefined;
  const shapes = new Set(types.map((type) => type.replace(/!/g, '').replace(/\w+/, '_')));
  if (shapes.size !== 1) return undefined;
  const abstract = [...named].filter((name) => possibleTypes.has(name));
  if (abstract.length !== 1) return undefined;
  const [abstractType] = abstract;
  const members = possibleTypes.get(abstractType)!;
  return [...named].every((name) => name === abstractType || members.has(name)) ? abstractType : undefined;
}

function namedTypeOf(type: string): string {
  return type.replace(/[[\]!\s]/g, '');
}

/** The supergraph's join__Graph value of each subgraph name. */
function graphEnumValues(supergraph: DocumentNode): Map<string, string> {
  const graphs = new Map<string, string>();
  for (const definition of supergraph.definitions) {
    if (definition.kind !== Kind.ENUM_TYPE_DEFINITION || definition.name.value !== 'join__Graph') continue;
    for (const value of definition.values ?? []) {
      const name = value.directives
        ?.find((d) => d.name.value === 'join__graph')
        ?.arguments?.find((a) => a.name.value === 'name')?.value;
      if (name?.kind === Kind.STRING) graphs.set(name.value, value.name.value);
    }
  }
  return graphs;
}

/**
 * The document with each widened field returning its abstract type; in the supergraph (when
 * `graphOf` is given) its `@join__field`s also carry each subgraph's own type.
 */
function retypeFields(
  document: DocumentNode,
  widened: Map<string, WidenedField>,
  graphOf: Map<string, string> | undefined,
): DocumentNode {
  let typeName = '';
  const enterType = (node: { name: { value: string } }) => {
    typeName = node.name.value;
  };
  return visit(document, {
    ObjectTypeDefinition: enterType,
    ObjectTypeExtension: enterType,
    InterfaceTypeDefinition: enterType,
    InterfaceTypeExtension: enterType,
    FieldDefinition(field): FieldDefinitionNode | undefined {
      const widening = widened.get(`${typeName}.${field.name.value}`);
      if (!widening) return undefined;
      const type = withNamedType(field.type, widening.abstractType);
      const directives = graphOf ? joinFieldsWithTypes(field, widening, graphOf) : field.directives;
      return { ...field, type, directives };
    },
  });
}

function withNamedType(type: TypeNode, name: string): TypeNode {
  if (type.kind === Kind.NAMED_TYPE) return { ...type, name: { ...type.name, value: name } };
  return { ...type, type: withNamedType(type.type, name) } as TypeNode;
}

/**
 * The field's directives with a `type:` on every `@join__field` of a declaring subgraph; a field
 * without `@join__field` (resolved in every subgraph that has its type) gets one per declaring
 * subgraph, since one `@join__field` restricts the field to the subgraphs it names.
 */
function joinFieldsWithTypes(
  field: FieldDefinitionNode,
  widening: WidenedField,
  graphOf: Map<string, string>,
): readonly ConstDirectiveNode[] {
  const subgraphOf = new Map([...graphOf].map(([subgraph, graph]) => [graph, subgraph]));
  const directives = field.directives ?? [];
  const joinFields = directives.filter((d) => d.name.value === 'join__field');
  if (joinFields.length === 0) {
    const added = [...widening.typeBySubgraph].flatMap(([subgraph, type]) => {
      const graph = graphOf.get(subgraph);
      return graph ? [joinField([enumArgument('graph', graph), stringArgument('type', type)])] : [];
    });
    return [...directives, ...added];
  }
  return directives.map((directive) => {
    if (directive.name.value !== 'join__field') return directive;
    const graph = directive.arguments?.find((a) => a.name.value === 'graph')?.value;
    const subgraph = graph?.kind === Kind.ENUM ? subgraphOf.get(graph.value) : undefined;
    const type = subgraph === undefined ? undefined : widening.typeBySubgraph.get(subgraph);
    if (type === undefined) return directive;
    const others = (directive.arguments ?? []).filter((a) => a.name.value !== 'type');
    return { ...directive, arguments: [...others, stringArgument('type', type)] };
  });
}

function joinField(args: ConstArgumentNode[]): ConstDirectiveNode {
  return { kind: Kind.DIRECTIVE, name: { kind: Kind.NAME, value: 'join__field' }, arguments: args };
}

function enumArgument(name: string, value: string): ConstArgumentNode {
  return { kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: name }, value: { kind: Kind.ENUM, value } };
}

function stringArgument(name: string, value: string): ConstArgumentNode {
  return { kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: name }, value: { kind: Kind.STRING, value } };
}

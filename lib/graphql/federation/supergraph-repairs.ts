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
import {
  subgraphDeclarations,
  type ComposedService,
  type FieldDeclaration,
  type SubgraphDeclarations,
} from './federation2-declarations';

/** The output of a Federation 2 composition these repairs correct. */
export interface Federation2Documents {
  supergraphSdl: string;
  publicDocumentNode: DocumentNode;
}

/** How one field of the supergraph is corrected. */
interface FieldRepair {
  /** the union or interface the field returns instead of one subgraph's member of it */
  abstractType?: string;
  /** the field's declaration in each subgraph declaring it */
  declarations: Map<string, FieldDeclaration>;
}

/**
 * Where @theguild/federation-composition 0.27.0 writes a supergraph that differs from Apollo's
 * for the same subgraphs, in ways the planner acts on, gw corrects it to Apollo's form:
 *
 * - A shared field returning a union or interface in one subgraph and a member of it in another
 *   (`book: Book` here, `book: Media` there) keeps one subgraph's type; Apollo gives it the
 *   abstract type and each subgraph's own with `@join__field(type:)`. Otherwise a client's
 *   `... on Song` is refused, or sent to a subgraph where the field is a Book.
 * - An interface field that every subgraph of the interface declares gets no `@join__field`
 *   even when one of them (an `@interfaceObject`) declares it `@external`, `@requires` or
 *   `@provides`: the planner then takes the external field from that subgraph, and a field that
 *   requires it is resolved without it.
 *
 * Subgraphs that declare no field either could concern come back as composed, the supergraph SDL
 * not even parsed (composition runs on every save and when a node compiles the supergraph).
 */
export function repairSupergraph(
  services: readonly ComposedService[],
  composed: Federation2Documents,
): Federation2Documents {
  const repairs = fieldRepairs(subgraphDeclarations(services));
  if (repairs.size === 0) return composed;
  const supergraph = parse(composed.supergraphSdl);
  const graphOf = graphEnumValues(supergraph);
  const retyped = new Map([...repairs].filter(([, repair]) => repair.abstractType !== undefined));
  return {
    supergraphSdl: print(repairFields(supergraph, repairs, graphOf)),
    publicDocumentNode:
      retyped.size === 0 ? composed.publicDocumentNode : repairFields(composed.publicDocumentNode, retyped, undefined),
  };
}

/**
 * The fields that may need a repair, by coordinate: those whose subgraphs differ in type as
 * above, and those some subgraph declares `@external`, `@requires` or `@provides` (repaired only
 * where the supergraph shows them as an interface field without `@join__field`).
 */
function fieldRepairs({ fields, possibleTypes }: SubgraphDeclarations): Map<string, FieldRepair> {
  const repairs = new Map<string, FieldRepair>();
  for (const [coordinate, declarations] of fields) {
    if (declarations.size < 2) continue;
    const all = [...declarations.values()];
    const abstractType = commonAbstractType(
      all.map((d) => d.type),
      possibleTypes,
    );
    const directed = all.some((d) => d.external || d.requires !== undefined || d.provides !== undefined);
    if (abstractType !== undefined || directed) repairs.set(coordinate, { abstractType, declarations });
  }
  return repairs;
}

/**
 * The one union or interface among the types of which all the other types are members, with the
 * same lists around each; undefined when the types agree or do not relate so (composition then
 * refuses them or merges them itself).
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
 * The document with its repaired fields: the abstract type where one is due, and in the
 * supergraph (when `graphOf` is given) the `@join__field`s that say what each subgraph declares.
 */
function repairFields(
  document: DocumentNode,
  repairs: Map<string, FieldRepair>,
  graphOf: Map<string, string> | undefined,
): DocumentNode {
  let typeName = '';
  let isInterface = false;
  const enter = (node: { kind: Kind; name: { value: string } }) => {
    typeName = node.name.value;
    isInterface = node.kind === Kind.INTERFACE_TYPE_DEFINITION || node.kind === Kind.INTERFACE_TYPE_EXTENSION;
  };
  return visit(document, {
    ObjectTypeDefinition: enter,
    ObjectTypeExtension: enter,
    InterfaceTypeDefinition: enter,
    InterfaceTypeExtension: enter,
    FieldDefinition(field): FieldDefinitionNode | undefined {
      const repair = repairs.get(`${typeName}.${field.name.value}`);
      if (!repair) return undefined;
      const type = repair.abstractType ? withNamedType(field.type, repair.abstractType) : field.type;
      if (!graphOf) return { ...field, type };
      const hasJoinFields = field.directives?.some((d) => d.name.value === 'join__field') ?? false;
      let directives = field.directives ?? [];
      if (!hasJoinFields && (repair.abstractType || isInterface))
        directives = [...directives, ...joinFieldsOf(repair, print(type), graphOf)];
      else if (hasJoinFields && repair.abstractType) directives = withJoinFieldTypes(directives, repair, graphOf);
      else return undefined;
      return { ...field, type, directives };
    },
  });
}

function withNamedType(type: TypeNode, name: string): TypeNode {
  if (type.kind === Kind.NAMED_TYPE) return { ...type, name: { ...type.name, value: name } };
  return { ...type, type: withNamedType(type.type, name) } as TypeNode;
}

/**
 * One `@join__field` per declaring subgraph, as Apollo writes them (each with its `type:` once
 * one subgraph's differs): a field with none is resolved in every subgraph of its type, and one
 * `@join__field` restricts it to those named.
 */
function joinFieldsOf(repair: FieldRepair, supergraphType: string, graphOf: Map<string, string>): ConstDirectiveNode[] {
  const typed = [...repair.declarations.values()].some((declaration) => declaration.type !== supergraphType);
  return [...repair.declarations].flatMap(([subgraph, declaration]) => {
    const graph = graphOf.get(subgraph);
    if (!graph) return [];
    const args = [enumArgument('graph', graph)];
    if (declaration.requires !== undefined) args.push(stringArgument('requires', declaration.requires));
    if (declaration.provides !== undefined) args.push(stringArgument('provides', declaration.provides));
    if (typed) args.push(stringArgument('type', declaration.type));
    if (declaration.external) args.push(booleanArgument('external', true));
    return [{ kind: Kind.DIRECTIVE, name: { kind: Kind.NAME, value: 'join__field' }, arguments: args }];
  });
}

/** The field's `@join__field`s, each with the `type:` its subgraph declares. */
function withJoinFieldTypes(
  directives: readonly ConstDirectiveNode[],
  repair: FieldRepair,
  graphOf: Map<string, string>,
): ConstDirectiveNode[] {
  const subgraphOf = new Map([...graphOf].map(([subgraph, graph]) => [graph, subgraph]));
  return directives.map((directive) => {
    if (directive.name.value !== 'join__field') return directive;
    const graph = directive.arguments?.find((a) => a.name.value === 'graph')?.value;
    const subgraph = graph?.kind === Kind.ENUM ? subgraphOf.get(graph.value) : undefined;
    const type = subgraph === undefined ? undefined : repair.declarations.get(subgraph)?.type;
    if (type === undefined) return directive;
    const others = (directive.arguments ?? []).filter((a) => a.name.value !== 'type');
    return { ...directive, arguments: [...others, stringArgument('type', type)] };
  });
}

function enumArgument(name: string, value: string): ConstArgumentNode {
  return { kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: name }, value: { kind: Kind.ENUM, value } };
}

function stringArgument(name: string, value: string): ConstArgumentNode {
  return { kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: name }, value: { kind: Kind.STRING, value } };
}

function booleanArgument(name: string, value: boolean): ConstArgumentNode {
  return { kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: name }, value: { kind: Kind.BOOLEAN, value } };
}

import {
  Kind,
  parse,
  print,
  type DefinitionNode,
  type DirectiveDefinitionNode,
  type ConstDirectiveNode,
  type DocumentNode,
  type EnumValueDefinitionNode,
  type FieldDefinitionNode,
  type InputValueDefinitionNode,
  type NamedTypeNode,
  type StringValueNode,
  type TypeDefinitionNode,
  type TypeExtensionNode,
  type TypeNode,
} from 'graphql';
import { validateSDL } from 'graphql/validation/validate';
import { compositionError, type CompositionError } from './composition-errors';
import {
  FEDERATION_DEFINITION_NAMES,
  FEDERATION_DIRECTIVES,
  FEDERATION_ROOT_FIELDS,
  FEDERATION_TYPES,
  NOT_FEDERATION_V1,
  federationDefinitions,
  fieldsArgument,
} from './federation-sdl';

export type TypeKind = 'object' | 'interface' | 'input' | 'enum' | 'union' | 'scalar';

export const ROOT_TYPES = new Set(['Query', 'Mutation', 'Subscription']);

export interface SubgraphField {
  name: string;
  /** the type as written, `[Review!]!` */
  type: string;
  /** the named type below lists and non-nulls, `Review` */
  namedType: string;
  /** the arguments in one spelling, to compare shared types */
  args: string;
  external: boolean;
  /** `@requires(fields:)` as written */
  requires?: string;
  /** `@provides(fields:)` as written */
  provides?: string;
  /** the definition without federation directives, for the client schema */
  node: FieldDefinitionNode | InputValueDefinitionNode;
}

/** A type as one subgraph declares it: its definition and its extensions in that subgraph, merged (normalised). */
export interface SubgraphType {
  name: string;
  kind: TypeKind;
  /** a definition (`type T`, not `extend type T` nor `type T @extends`) is in this subgraph */
  hasBase: boolean;
  /** an extension of the type (`extend type T` or `@extends`) is in this subgraph */
  hasExtension: boolean;
  /** `@key(fields:)` as written, from every declaration of the type in this subgraph */
  keys: string[];
  /** the keys declared on the definition, not on extensions */
  baseKeys: string[];
  fields: Map<string, SubgraphField>;
  interfaces: string[];
  enumValues: EnumValueDefinitionNode[];
  unionMembers: string[];
  description?: StringValueNode;
}

export interface ParsedSubgraph {
  name: string;
  types: Map<string, SubgraphType>;
  /** directive definitions clients may use in operations (all their locations executable) */
  executableDirectives: DirectiveDefinitionNode[];
  /** the SDL parsed, without what federation adds for the gateway (read by the composition hints) */
  document: DocumentNode;
}

/** a type definition's or extension's AST kind → what it defines */
export const KIND_OF: Partial<Record<string, TypeKind>> = {
  [Kind.OBJECT_TYPE_DEFINITION]: 'object',
  [Kind.OBJECT_TYPE_EXTENSION]: 'object',
  [Kind.INTERFACE_TYPE_DEFINITION]: 'interface',
  [Kind.INTERFACE_TYPE_EXTENSION]: 'interface',
  [Kind.INPUT_OBJECT_TYPE_DEFINITION]: 'input',
  [Kind.INPUT_OBJECT_TYPE_EXTENSION]: 'input',
  [Kind.ENUM_TYPE_DEFINITION]: 'enum',
  [Kind.ENUM_TYPE_EXTENSION]: 'enum',
  [Kind.UNION_TYPE_DEFINITION]: 'union',
  [Kind.UNION_TYPE_EXTENSION]: 'union',
  [Kind.SCALAR_TYPE_DEFINITION]: 'scalar',
  [Kind.SCALAR_TYPE_EXTENSION]: 'scalar',
};

const EXTENSION_TO_DEFINITION: Partial<Record<string, Kind>> = {
  [Kind.OBJECT_TYPE_EXTENSION]: Kind.OBJECT_TYPE_DEFINITION,
  [Kind.INTERFACE_TYPE_EXTENSION]: Kind.INTERFACE_TYPE_DEFINITION,
  [Kind.INPUT_OBJECT_TYPE_EXTENSION]: Kind.INPUT_OBJECT_TYPE_DEFINITION,
  [Kind.ENUM_TYPE_EXTENSION]: Kind.ENUM_TYPE_DEFINITION,
  [Kind.UNION_TYPE_EXTENSION]: Kind.UNION_TYPE_DEFINITION,
  [Kind.SCALAR_TYPE_EXTENSION]: Kind.SCALAR_TYPE_DEFINITION,
};

/** the directive locations of operations (an executable directive may stand in them) */
export const EXECUTABLE_LOCATIONS = new Set([
  'QUERY',
  'MUTATION',
  'SUBSCRIPTION',
  'FIELD',
  'FRAGMENT_DEFINITION',
  'FRAGMENT_SPREAD',
  'INLINE_FRAGMENT',
  'VARIABLE_DEFINITION',
]);

type TypeNodeOfSubgraph = TypeDefinitionNode | TypeExtensionNode;

/**
 * Reads one subgraph's SDL: it must parse and be a valid schema on its own (its extensions of
 * types other subgraphs define count as declarations here), with the federation v1 definitions
 * available whether or not the SDL repeats them.
 */
export function parseSubgraph(
  name: string,
  sdl: string,
): { subgraph: ParsedSubgraph; errors?: undefined } | { errors: CompositionError[] } {
  const fail = (message: string) => ({
    errors: [compositionError('INVALID_SUBGRAPH_SDL', `Subgraph '${name}': ${message}`, { subgraphs: [name] })],
  });
  let document: DocumentNode;
  try {
    document = parse(sdl, { noLocation: true });
  } catch (err) {
    return fail(`the SDL does not parse: ${(err as Error).message}`);
  }
  const definitions = withoutFederationSupport(document.definitions);
  // a subgraph linking Federation 2 never reaches here (compose-supergraph sends it to compose-federation2)
  if (usesLink(definitions))
    return fail(
      'it uses @link but links no Federation 2 specification (https://specs.apollo.dev/federation/v2.x); a Federation v1 subgraph has no @link',
    );
  const renamed = renamedRoot(definitions);
  if (renamed)
    return fail(
      `it names its ${renamed.operation} root type '${renamed.type}'; gw composes subgraphs whose root types are named Query, Mutation and Subscription`,
    );
  const problems = validateSDL({
    kind: Kind.DOCUMENT,
    definitions: [...asStandalone(definitions), ...federationDefinitions()],
  }).map((error) => withVersionHint(error.message));
  if (problems.length > 0) return { errors: problems.map((problem) => fail(problem).errors[0]) };
  return {
    subgraph: {
      name,
      types: collectTypes(definitions),
      executableDirectives: executableDirectives(definitions),
      document: { kind: Kind.DOCUMENT, definitions },
    },
  };
}

/** The SDL without what federation adds for the gateway (`_service`, `_entities`, `_Any`, the directive definitions). */
export function withoutFederationSupport(definitions: readonly DefinitionNode[]): DefinitionNode[] {
  const kept: DefinitionNode[] = [];
  for (const definition of definitions) {
    if (definition.kind === Kind.SCHEMA_DEFINITION || definition.kind === Kind.SCHEMA_EXTENSION) {
      kept.push(definition);
      continue;
    }
    if (!('name' in definition) || !definition.name) continue;
    const name = definition.name.value;
    if (
      definition.kind === Kind.DIRECTIVE_DEFINITION ? FEDERATION_DEFINITION_NAMES.has(name) : FEDERATION_TYPES.has(name)
    )
      continue;
    if (
      (definition.kind === Kind.OBJECT_TYPE_DEFINITION || definition.kind === Kind.OBJECT_TYPE_EXTENSION) &&
      name === 'Query'
    ) {
      const fields = definition.fields?.filter((field) => !FEDERATION_ROOT_FIELDS.has(field.name.value));
      if (
        definition.kind === Kind.OBJECT_TYPE_EXTENSION &&
        fields?.length === 0 &&
        !definition.directives?.length &&
        !definition.interfaces?.length
      )
        continue;
      kept.push({ ...definition, fields });
      continue;
    }
    kept.push(definition);
  }
  return kept;
}

function usesLink(definitions: readonly DefinitionNode[]): boolean {
  return definitions.some(
    (node) =>
      (node.kind === Kind.SCHEMA_DEFINITION || node.kind === Kind.SCHEMA_EXTENSION) &&
      Boolean(node.directives?.some((d) => d.name.value === 'link')),
  );
}

function renamedRoot(definitions: readonly DefinitionNode[]): { operation: string; type: string } | undefined {
  for (const definition of definitions) {
    if (definition.kind !== Kind.SCHEMA_DEFINITION && definition.kind !== Kind.SCHEMA_EXTENSION) continue;
    for (const operation of definition.operationTypes ?? []) {
      const expected =
        operation.operation === 'query' ? 'Query' : operation.operation === 'mutation' ? 'Mutation' : 'Subscription';
      if (operation.type.name.value !== expected)
        return { operation: operation.operation, type: operation.type.name.value };
    }
  }
  return undefined;
}

/**
 * The first extension of a type with no definition here becomes its definition, so the
 * subgraph validates on its own (`extend type Product @key(fields: "upc")` declares `Product`).
 */
export function asStandalone(definitions: readonly DefinitionNode[]): DefinitionNode[] {
  const defined = new Set(
    definitions
      .filter((node) => isTypeNode(node) && !isExtension(node))
      .map((node) => (node as TypeNodeOfSubgraph).name.value),
  );
  return definitions
    .filter((node) => node.kind !== Kind.SCHEMA_DEFINITION && node.kind !== Kind.SCHEMA_EXTENSION)
    .map((node) => {
      if (!isTypeNode(node) || defined.has(node.name.value)) return node;
      defined.add(node.name.value);
      const kind = EXTENSION_TO_DEFINITION[node.kind];
      return kind ? ({ ...node, kind } as DefinitionNode) : node;
    });
}

function withVersionHint(message: string): string {
  const unknown = /^Unknown directive "@(\w+)"/.exec(message);
  return unknown && NOT_FEDERATION_V1.has(unknown[1])
    ? `${message} @${unknown[1]} belongs to Federation 2: link it with extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@${unknown[1]}"]).`
    : message;
}

function isTypeNode(node: DefinitionNode): node is TypeNodeOfSubgraph {
  return KIND_OF[node.kind] !== undefined;
}

/** `extend type T` or `type T @extends`. */
function isExtension(node: TypeNodeOfSubgraph): boolean {
  return (
    EXTENSION_TO_DEFINITION[node.kind] !== undefined ||
    Boolean(node.directives?.some((d) => d.name.value === 'extends'))
  );
}

function collectTypes(definitions: readonly DefinitionNode[]): Map<string, SubgraphType> {
  const types = new Map<string, SubgraphType>();
  for (const node of definitions) {
    if (!isTypeNode(node)) continue;
    const name = node.name.value;
    let type = types.get(name);
    if (!type)
      types.set(
        name,
        (type = {
          name,
          kind: KIND_OF[node.kind]!,
          hasBase: false,
          hasExtension: false,
          keys: [],
          baseKeys: [],
          fields: new Map(),
          interfaces: [],
          enumValues: [],
          unionMembers: [],
        }),
      );
    addDeclaration(type, node);
  }
  return types;
}

function addDeclaration(type: SubgraphType, node: TypeNodeOfSubgraph): void {
  const base = !isExtension(node);
  const keys = (node.directives ?? []).filter((d) => d.name.value === 'key').map((d) => fieldsArgument(d) ?? '');
  type.keys.push(...keys);
  if (!base) type.hasExtension = true;
  if (base) {
    type.hasBase = true;
    type.baseKeys.push(...keys);
    type.description ??= 'description' in node ? node.description : undefined;
  }
  if ('interfaces' in node)
    type.interfaces.push(
      ...(node.interfaces ?? []).map((i: NamedTypeNode) => i.name.value).filter((i) => !type.interfaces.includes(i)),
    );
  if ('values' in node)
    type.enumValues.push(
      ...(node.values ?? []).map((value) => ({ ...value, directives: clientDirectives(value.directives) })),
    );
  if ('types' in node) type.unionMembers.push(...(node.types ?? []).map((member) => member.name.value));
  if ('fields' in node) for (const field of node.fields ?? []) type.fields.set(field.name.value, readField(field));
}

function readField(node: FieldDefinitionNode | InputValueDefinitionNode): SubgraphField {
  const directive = (name: string) => node.directives?.find((d) => d.name.value === name);
  const requires = directive('requires');
  const provides = directive('provides');
  return {
    name: node.name.value,
    type: print(node.type),
    namedType: namedTypeOf(node.type),
    args:
      'arguments' in node
        ? (node.arguments ?? [])
            .map(
              (arg) =>
                `${arg.name.value}: ${print(arg.type)}${arg.defaultValue ? ` = ${print(arg.defaultValue)}` : ''}`,
            )
            .join(', ')
        : '',
    external: directive('external') !== undefined,
    requires: requires ? (fieldsArgument(requires) ?? '') : undefined,
    provides: provides ? (fieldsArgument(provides) ?? '') : undefined,
    node: { ...node, directives: clientDirectives(node.directives) },
  };
}

function namedTypeOf(type: TypeNode): string {
  return type.kind === Kind.NAMED_TYPE ? type.name.value : namedTypeOf(type.type);
}

/** Directives the client schema keeps: `@deprecated` and `@specifiedBy`; federation and custom schema directives go. */
export function clientDirectives(directives: readonly ConstDirectiveNode[] | undefined): ConstDirectiveNode[] {
  return (directives ?? []).filter(
    (d) =>
      !FEDERATION_DIRECTIVES.has(d.name.value) && (d.name.value === 'deprecated' || d.name.value === 'specifiedBy'),
  );
}

function executableDirectives(definitions: readonly DefinitionNode[]): DirectiveDefinitionNode[] {
  return definitions.filter(
    (node): node is DirectiveDefinitionNode =>
      node.kind === Kind.DIRECTIVE_DEFINITION &&
      node.locations.every((location) => EXECUTABLE_LOCATIONS.has(location.value)),
  );
}

import {
  Kind,
  type DirectiveNode,
  type DirectiveDefinitionNode,
  type DocumentNode,
  type FieldDefinitionNode,
  type InputValueDefinitionNode,
  type TypeNode,
} from 'graphql';
import { linkedFederationDirective } from './federation2-declarations';
import { linksFederation2Spec } from './federation-version';
import { EXECUTABLE_LOCATIONS, KIND_OF, type TypeKind } from './subgraph-sdl';

/** A subgraph as the hint rules read it: its name in the supergraph and its parsed SDL. */
export interface HintSubgraph {
  name: string;
  typeDefs: DocumentNode;
}

/** One subgraph's declaration of a field, an input field or (with no type of its own) an enum value. */
export interface FieldView {
  type?: TypeNode;
  description?: string;
  args: Map<string, InputValueDefinitionNode>;
  defaultValue?: InputValueDefinitionNode['defaultValue'];
  external: boolean;
  /** `@override(from:)`'s subgraph */
  overrideFrom?: string;
}

export type TypeViewKind = TypeKind;

/** One subgraph's declaration of a type: its definition and extensions there, merged. */
export interface TypeView {
  kind: TypeViewKind;
  description?: string;
  /** has a `@key` in this subgraph */
  keyed: boolean;
  fields: Map<string, FieldView>;
  /** object types and interfaces it implements, members of a union */
  supertypes: string[];
}

/** Every subgraph's declarations, by name, then by subgraph name (in the supergraph's subgraph order). */
export interface SubgraphIndex {
  subgraphs: string[];
  types: Map<string, Map<string, TypeView>>;
  /** directive definitions whose locations are all executable */
  executableDirectives: Map<string, Map<string, DirectiveDefinitionNode>>;
  /** every type a field, argument or input field of some subgraph refers to */
  referencedTypes: Set<string>;
  /** `Object` → the interfaces and unions it belongs to in any subgraph */
  abstractTypesOf: Map<string, Set<string>>;
}

/** The federation machinery (`_Service`, `link__Purpose`, `federation__FieldSet`, `join__Graph`) is never hinted about. */
export function isFederationMachinery(name: string): boolean {
  return name.startsWith('_') || name.includes('__');
}

/** One pass over every subgraph's definitions; the hint rules only read the result. */
export function subgraphIndex(subgraphs: readonly HintSubgraph[]): SubgraphIndex {
  const index: SubgraphIndex = {
    subgraphs: subgraphs.map((subgraph) => subgraph.name),
    types: new Map(),
    executableDirectives: new Map(),
    referencedTypes: new Set(),
    abstractTypesOf: new Map(),
  };
  for (const subgraph of subgraphs) indexSubgraph(index, subgraph);
  return index;
}

function indexSubgraph(index: SubgraphIndex, { name, typeDefs }: HintSubgraph): void {
  const directives = directiveNames(typeDefs);
  for (const definition of typeDefs.definitions) {
    if (definition.kind === Kind.DIRECTIVE_DEFINITION) {
      if (definition.locations.every((location) => EXECUTABLE_LOCATIONS.has(location.value)))
        entryOf(index.executableDirectives, definition.name.value).set(name, definition);
      for (const arg of definition.arguments ?? []) index.referencedTypes.add(namedTypeOf(arg.type));
      continue;
    }
    const kind = KIND_OF[definition.kind];
    if (!kind || !('name' in definition) || !definition.name || isFederationMachinery(definition.name.value)) continue;
    const typeName = definition.name.value;
    const bySubgraph = entryOf(index.types, typeName);
    let view = bySubgraph.get(name);
    if (!view) bySubgraph.set(name, (view = { kind, keyed: false, fields: new Map(), supertypes: [] }));
    if ('description' in definition && definition.description?.value.trim())
      view.description ??= definition.description.value.trim();
    view.keyed ||= hasDirective(definition.directives, directives.key);
    if ('interfaces' in definition)
      for (const implemented of definition.interfaces ?? []) addAbstract(index, typeName, implemented.name.value);
    if (definition.kind === Kind.UNION_TYPE_DEFINITION || definition.kind === Kind.UNION_TYPE_EXTENSION)
      for (const member of definition.types ?? []) addAbstract(index, member.name.value, typeName);
    if ('fields' in definition)
      for (const field of definition.fields ?? []) {
        if (isFederationMachinery(field.name.value)) continue;
        view.fields.set(field.name.value, fieldView(field, directives));
        index.referencedTypes.add(namedTypeOf(field.type));
        for (const arg of 'arguments' in field ? (field.arguments ?? []) : [])
          index.referencedTypes.add(namedTypeOf(arg.type));
      }
    if ('values' in definition)
      for (const value of definition.values ?? [])
        view.fields.set(value.name.value, {
          description: value.description?.value.trim() || undefined,
          args: new Map(),
          external: false,
        });
  }
}

interface DirectiveNames {
  key: string;
  external: string;
  override: string;
}

/** The federation directives' names in this subgraph: as a Federation 2 `@link` imports them, else v1's. */
function directiveNames(typeDefs: DocumentNode): DirectiveNames {
  if (!linksFederation2Spec(typeDefs)) return { key: 'key', external: 'external', override: 'override' };
  return {
    key: linkedFederationDirective(typeDefs, '@key'),
    external: linkedFederationDirective(typeDefs, '@external'),
    override: linkedFederationDirective(typeDefs, '@override'),
  };
}

function fieldView(field: FieldDefinitionNode | InputValueDefinitionNode, names: DirectiveNames): FieldView {
  const override = field.directives?.find((directive) => directive.name.value === names.override);
  const from = override?.arguments?.find((argument) => argument.name.value === 'from')?.value;
  return {
    type: field.type,
    description: field.description?.value.trim() || undefined,
    args: new Map(
      field.kind === Kind.FIELD_DEFINITION ? (field.arguments ?? []).map((arg) => [arg.name.value, arg]) : [],
    ),
    defaultValue: field.kind === Kind.INPUT_VALUE_DEFINITION ? field.defaultValue : undefined,
    external: hasDirective(field.directives, names.external),
    overrideFrom: from?.kind === Kind.STRING ? from.value : undefined,
  };
}

function hasDirective(directives: readonly DirectiveNode[] | undefined, name: string): boolean {
  return (directives ?? []).some((directive) => directive.name.value === name);
}

function addAbstract(index: SubgraphIndex, object: string, abstract: string): void {
  let abstracts = index.abstractTypesOf.get(object);
  if (!abstracts) index.abstractTypesOf.set(object, (abstracts = new Set()));
  abstracts.add(abstract);
}

function entryOf<T>(map: Map<string, Map<string, T>>, key: string): Map<string, T> {
  let entry = map.get(key);
  if (!entry) map.set(key, (entry = new Map()));
  return entry;
}

export function namedTypeOf(type: TypeNode): string {
  return type.kind === Kind.NAMED_TYPE ? type.name.value : namedTypeOf(type.type);
}

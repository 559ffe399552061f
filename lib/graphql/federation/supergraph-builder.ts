import {
  Kind,
  type DefinitionNode,
  type DirectiveDefinitionNode,
  type DocumentNode,
  type FieldDefinitionNode,
  type InputValueDefinitionNode,
  type NamedTypeNode,
} from 'graphql';
import { keyFieldsAddedBy } from './added-key-fields';
import { canonicalFieldSet, type Declaration, type TypeGroup } from './declarations';
import { isOutputSubtype } from './output-types';
import { ROOT_TYPES, type SubgraphField } from './subgraph-sdl';
import type { EntityPlacement, FieldPlacement } from './supergraph';

/** The merged client-facing document and where each field is resolved; built only from subgraphs that passed every rule. */
export interface MergedGraph {
  document: DocumentNode;
  fields: Record<string, Record<string, FieldPlacement>>;
  entities: Record<string, EntityPlacement>;
}

interface OwnedField {
  field: SubgraphField;
  /** subgraphs resolving it, each with its declaration of the field (for @requires and @provides) */
  owners: Array<{ subgraph: string; field: SubgraphField }>;
}

export function buildMergedGraph(groups: Map<string, TypeGroup>, directives: DirectiveDefinitionNode[]): MergedGraph {
  const definitions: DefinitionNode[] = [...directives];
  const fields: MergedGraph['fields'] = {};
  const entities: MergedGraph['entities'] = {};
  for (const group of groups.values()) {
    const owned = ownedFields(group);
    definitions.push(definitionOf(group, owned));
    const kind = group.declarations[0].type.kind;
    if (kind === 'object' || kind === 'interface') fields[group.name] = placements(owned);
    if (!ROOT_TYPES.has(group.name) && group.bases.length === 1 && group.bases[0].type.baseKeys.length > 0)
      entities[group.name] = { keys: keysPerSubgraph(group) };
  }
  return { document: { kind: Kind.DOCUMENT, definitions }, fields, entities };
}

/**
 * The fields of the merged type and who resolves each: every subgraph for a shared type, the
 * defining subgraph or the extension that adds it for an entity, the declaring subgraph for a
 * root field. `@external` declarations resolve nothing, except a key field an extension adds
 * (one the definition lacks), which every extension keyed on it resolves.
 */
function ownedFields(group: TypeGroup): Map<string, OwnedField> {
  const owned = new Map<string, OwnedField>();
  const shared = !ROOT_TYPES.has(group.name) && group.bases.length > 1;
  const declarations: Declaration[] = ROOT_TYPES.has(group.name)
    ? group.declarations
    : shared
      ? group.bases
      : [...group.bases, ...group.extensions];
  for (const declaration of declarations) {
    const { subgraph, type } = declaration;
    const added = shared ? new Set<string>() : keyFieldsAddedBy(declaration, group.bases[0]);
    for (const field of type.fields.values()) {
      if (field.external && !added.has(field.name)) continue;
      const entry = owned.get(field.name);
      if (entry) {
        entry.owners.push({ subgraph, field });
        // extensions adding one key field may differ in non-null: the supergraph takes the general type
        if (field.type !== entry.field.type && isOutputSubtype(entry.field.type, field.type)) {
          entry.field = field;
        }
      } else owned.set(field.name, { field, owners: [{ subgraph, field }] });
    }
  }
  return owned;
}

function placements(owned: Map<string, OwnedField>): Record<string, FieldPlacement> {
  const result: Record<string, FieldPlacement> = {};
  for (const [name, { owners }] of owned) {
    const placement: FieldPlacement = { resolvedBy: owners.map((o) => o.subgraph), requires: {}, provides: {} };
    for (const { subgraph, field } of owners) {
      if (field.requires !== undefined) placement.requires[subgraph] = canonicalFieldSet(field.requires);
      if (field.provides !== undefined) placement.provides[subgraph] = canonicalFieldSet(field.provides);
    }
    result[name] = placement;
  }
  return result;
}

function keysPerSubgraph(group: TypeGroup): Record<string, string[]> {
  const keys: Record<string, string[]> = {};
  for (const { subgraph, type } of group.declarations)
    if (type.keys.length > 0) keys[subgraph] = type.keys.map(canonicalFieldSet);
  return keys;
}

/** The client-facing definition of one type: federation directives, `@external` declarations and extensions merged away. */
function definitionOf(group: TypeGroup, owned: Map<string, OwnedField>): DefinitionNode {
  const first = (group.bases[0] ?? group.declarations[0]).type;
  const name = { kind: Kind.NAME, value: group.name } as const;
  const description = first.description;
  const interfaces: NamedTypeNode[] = [...new Set(group.declarations.flatMap((d) => d.type.interfaces))].map(
    (value) => ({ kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value } }),
  );
  const fieldNodes = [...owned.values()].map((entry) => entry.field.node);
  switch (first.kind) {
    case 'object':
      return {
        kind: Kind.OBJECT_TYPE_DEFINITION,
        name,
        description,
        interfaces,
        fields: fieldNodes as FieldDefinitionNode[],
      };
    case 'interface':
      return {
        kind: Kind.INTERFACE_TYPE_DEFINITION,
        name,
        description,
        interfaces,
        fields: fieldNodes as FieldDefinitionNode[],
      };
    case 'input':
      return {
        kind: Kind.INPUT_OBJECT_TYPE_DEFINITION,
        name,
        description,
        fields: [...first.fields.values()].map((f) => f.node as InputValueDefinitionNode),
      };
    case 'enum':
      return { kind: Kind.ENUM_TYPE_DEFINITION, name, description, values: first.enumValues };
    case 'union':
      return {
        kind: Kind.UNION_TYPE_DEFINITION,
        name,
        description,
        types: first.unionMembers.map((value) => ({ kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value } })),
      };
    default:
      return { kind: Kind.SCALAR_TYPE_DEFINITION, name, description };
  }
}

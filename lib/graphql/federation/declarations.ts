import type { FieldLookup, FieldSet } from './field-sets';
import { parseFieldSet } from './field-sets';
import type { ParsedSubgraph, SubgraphType, TypeKind } from './subgraph-sdl';

/** One subgraph's declaration of a type. */
export interface Declaration {
  subgraph: string;
  type: SubgraphType;
}

/** Every declaration of one type name, in subgraph order. */
export interface TypeGroup {
  name: string;
  declarations: Declaration[];
  /** declarations that define the type (not only extend it) */
  bases: Declaration[];
  /** declarations in subgraphs that only extend it */
  extensions: Declaration[];
}

/** The declarations of every type name across the subgraphs, in order of first appearance. */
export function groupTypes(subgraphs: readonly ParsedSubgraph[]): Map<string, TypeGroup> {
  const groups = new Map<string, TypeGroup>();
  for (const subgraph of subgraphs) {
    for (const type of subgraph.types.values()) {
      let group = groups.get(type.name);
      if (!group) groups.set(type.name, (group = { name: type.name, declarations: [], bases: [], extensions: [] }));
      const declaration = { subgraph: subgraph.name, type };
      group.declarations.push(declaration);
      (type.hasBase ? group.bases : group.extensions).push(declaration);
    }
  }
  return groups;
}

/** An entity: exactly one subgraph defines it, with `@key`. */
export function isEntity(group: TypeGroup | undefined): boolean {
  return group !== undefined && group.bases.length === 1 && group.bases[0].type.baseKeys.length > 0;
}

/** Field-set lookups in one subgraph's declarations. */
export function subgraphLookup(subgraph: ParsedSubgraph): FieldLookup {
  return { fieldsOf: (typeName) => fieldTypes(subgraph.types.get(typeName)) };
}

/** Field-set lookups in the base definitions (the first one where several subgraphs share a type). */
export function baseLookup(groups: Map<string, TypeGroup>): FieldLookup {
  return {
    fieldsOf: (typeName) => fieldTypes((groups.get(typeName)?.bases[0] ?? groups.get(typeName)?.declarations[0])?.type),
  };
}

function fieldTypes(type: SubgraphType | undefined): Map<string, string> | undefined {
  if (!type || !COMPOSITE.has(type.kind)) return undefined;
  return new Map([...type.fields.values()].map((field) => [field.name, field.namedType]));
}

const COMPOSITE = new Set<TypeKind>(['object', 'interface']);

const KIND_WORDS: Record<TypeKind, string> = {
  object: 'an object type',
  interface: 'an interface',
  input: 'an input type',
  enum: 'an enum',
  union: 'a union',
  scalar: 'a scalar',
};

/** `an object type`, `an enum`, … */
export function kindWord(kind: TypeKind): string {
  return KIND_WORDS[kind];
}

/** The canonical spelling of a field set, or the text as written when it does not parse (reported elsewhere). */
export function canonicalFieldSet(text: string): string {
  const parsed = parseFieldSet(text);
  return 'problem' in parsed ? text.trim() : parsed.text;
}

/** A parsed field set, or undefined when it does not parse. */
export function fieldSetOf(text: string): FieldSet | undefined {
  const parsed = parseFieldSet(text);
  return 'problem' in parsed ? undefined : parsed;
}

/** `lookup`, with the fields an extension adds to its type. */
export function withExtensionFields(lookup: FieldLookup, extension: Declaration): FieldLookup {
  const own = fieldTypes(extension.type);
  return {
    fieldsOf: (typeName) => {
      const fields = lookup.fieldsOf(typeName);
      return typeName === extension.type.name && own ? new Map([...own, ...(fields ?? [])]) : fields;
    },
  };
}

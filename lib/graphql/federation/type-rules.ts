import { compositionError, quotedList, type CompositionError } from './composition-errors';
import { kindWord, type Declaration, type TypeGroup } from './declarations';
import { extensionErrors } from './extension-rules';
import type { FieldLookup } from './field-sets';
import { ROOT_TYPES, type SubgraphType } from './subgraph-sdl';

/**
 * The cross-subgraph rules of one type name: the same kind everywhere; root types merge their
 * fields (each owned by one subgraph); a type with no definition, or extended while defined in
 * several subgraphs, is an extension orphan; a type defined in several subgraphs is a shared type
 * (never an entity) and must be identical after normalisation; a type defined once may be extended
 * elsewhere only as an entity.
 */
export function typeGroupErrors(group: TypeGroup, lookup: FieldLookup): CompositionError[] {
  const kinds = new Set(group.declarations.map((d) => d.type.kind));
  if (kinds.size > 1) {
    const described = group.declarations.map((d) => `${kindWord(d.type.kind)} in subgraph '${d.subgraph}'`).join(', ');
    return [
      compositionError(
        'TYPE_KIND_MISMATCH',
        `Type '${group.name}' is not the same kind of type in every subgraph: ${described}`,
        { subgraphs: group.declarations.map((d) => d.subgraph), type: group.name },
      ),
    ];
  }
  if (ROOT_TYPES.has(group.name)) return rootFieldErrors(group);
  if (group.bases.length === 0) {
    const extenders = group.extensions.map((d) => d.subgraph);
    return [
      compositionError(
        'EXTENSION_ORPHAN',
        `Type '${group.name}' is extended in subgraph${extenders.length > 1 ? 's' : ''} ${quotedList(extenders)} but defined in no subgraph (extension orphan); define '${group.name}' in exactly one subgraph`,
        { subgraphs: extenders, type: group.name },
      ),
    ];
  }
  if (group.bases.length > 1) return [...sharedTypeErrors(group), ...orphansOfSharedType(group)];
  return group.extensions.length > 0 ? extensionErrors(group, lookup) : [];
}

/** Query, Mutation and Subscription: every subgraph adds fields; a field defined by two is ambiguous. */
function rootFieldErrors(group: TypeGroup): CompositionError[] {
  const owners = new Map<string, string[]>();
  for (const { subgraph, type } of group.declarations) {
    for (const field of type.fields.values())
      if (!field.external) owners.set(field.name, [...(owners.get(field.name) ?? []), subgraph]);
  }
  return [...owners]
    .filter(([, subgraphs]) => subgraphs.length > 1)
    .map(([field, subgraphs]) =>
      compositionError(
        'ROOT_FIELD_DEFINED_TWICE',
        `Root field '${group.name}.${field}' is defined in subgraphs ${quotedList(subgraphs)}; in federation v1 each root field belongs to exactly one subgraph: rename or remove it in all but one`,
        { subgraphs, type: group.name, field },
      ),
    );
}

/** A type several subgraphs define: not an entity, and the same in each after applying each subgraph's own extensions. */
function sharedTypeErrors(group: TypeGroup): CompositionError[] {
  const definers = group.bases.map((d) => d.subgraph);
  if (group.bases.some((d) => d.type.baseKeys.length > 0)) {
    return [
      compositionError(
        'ENTITY_DEFINED_TWICE',
        `Entity '${group.name}' is defined in subgraphs ${quotedList(definers)}; an entity can not be a shared type: define it in one subgraph and reference it from the others with an extension or entity stub (extend type ${group.name} @key(fields: ...))`,
        { subgraphs: definers, type: group.name },
      ),
    ];
  }
  const [first, ...others] = group.bases;
  const errors: CompositionError[] = [];
  for (const other of others) {
    const differences = structuralDifferences(first, other);
    if (differences.length === 0) continue;
    const normalised = [first, other].filter((d) => d.type.hasExtension).map((d) => d.subgraph);
    const note =
      normalised.length > 0
        ? `; compared after applying the extensions of '${group.name}' in subgraph${normalised.length > 1 ? 's' : ''} ${quotedList(normalised)}: a shared type may only be extended when every subgraph that defines it ends up with the same type`
        : '';
    errors.push(
      compositionError(
        'SHARED_TYPE_MISMATCH',
        `Shared type '${group.name}' is not identical in subgraphs '${first.subgraph}' and '${other.subgraph}': ${differences.join('; ')}${note}`,
        {
          subgraphs: [first.subgraph, other.subgraph],
          type: group.name,
        },
      ),
    );
  }
  return errors;
}

function orphansOfSharedType(group: TypeGroup): CompositionError[] {
  const definers = group.bases.map((d) => d.subgraph);
  return group.extensions.map((extension) =>
    compositionError(
      'EXTENSION_ORPHAN',
      `Subgraph '${extension.subgraph}' extends type '${group.name}', which is defined in more than one subgraph (${quotedList(definers)}) (extension orphan); an extension needs exactly one base definition`,
      { subgraphs: [extension.subgraph, ...definers], type: group.name },
    ),
  );
}

/** What differs between two declarations of the same kind, in words. */
function structuralDifferences(a: Declaration, b: Declaration): string[] {
  const only = (what: string, left: Iterable<string>, right: Iterable<string>, subgraph: string) => {
    const other = new Set(right);
    return [...left]
      .filter((item) => !other.has(item))
      .map((item) => `${what} '${item}' is in subgraph '${subgraph}' only`);
  };
  const differences: string[] = [];
  const { type: x } = a;
  const { type: y } = b;
  differences.push(
    ...only('field', x.fields.keys(), y.fields.keys(), a.subgraph),
    ...only('field', y.fields.keys(), x.fields.keys(), b.subgraph),
  );
  for (const field of x.fields.values()) {
    const twin = y.fields.get(field.name);
    if (twin && twin.type !== field.type)
      differences.push(
        `field '${field.name}' is '${field.type}' in '${a.subgraph}' and '${twin.type}' in '${b.subgraph}'`,
      );
    if (twin && twin.args !== field.args)
      differences.push(
        `the arguments of field '${field.name}' differ ((${field.args}) in '${a.subgraph}', (${twin.args}) in '${b.subgraph}')`,
      );
  }
  differences.push(
    ...only('interface', x.interfaces, y.interfaces, a.subgraph),
    ...only('interface', y.interfaces, x.interfaces, b.subgraph),
  );
  differences.push(
    ...only('enum value', enumValues(x), enumValues(y), a.subgraph),
    ...only('enum value', enumValues(y), enumValues(x), b.subgraph),
  );
  differences.push(
    ...only('union member', x.unionMembers, y.unionMembers, a.subgraph),
    ...only('union member', y.unionMembers, x.unionMembers, b.subgraph),
  );
  return differences;
}

function enumValues(type: SubgraphType): string[] {
  return type.enumValues.map((value) => value.name.value);
}

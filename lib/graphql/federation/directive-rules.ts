import { compositionError, type CompositionError } from './composition-errors';
import { isEntity, subgraphLookup, type TypeGroup } from './declarations';
import { fieldSetProblem, parseFieldSet } from './field-sets';
import { ROOT_TYPES, type ParsedSubgraph, type SubgraphField, type SubgraphType } from './subgraph-sdl';

/**
 * The rules of federation directives inside one subgraph: the keys of a definition select its
 * own fields (composite and nested keys included), `@external` is for extensions only,
 * `@requires` names fields the extension marks `@external`, and `@provides` is on a field
 * returning an entity and names fields this subgraph marks `@external` on it.
 */
export function directiveErrors(subgraph: ParsedSubgraph, groups: Map<string, TypeGroup>): CompositionError[] {
  const errors = ownDirectiveErrors(subgraph);
  for (const type of subgraph.types.values()) {
    for (const field of type.fields.values())
      if (field.provides !== undefined) errors.push(...providesErrors(subgraph, type, field, groups));
  }
  return errors;
}

/** The rules a subgraph can be checked against alone (every one but `@provides`, which needs to know the entities of all). */
export function ownDirectiveErrors(subgraph: ParsedSubgraph): CompositionError[] {
  const errors: CompositionError[] = [];
  for (const type of subgraph.types.values()) {
    if (type.hasBase) errors.push(...baseKeyErrors(subgraph, type), ...externalOnBase(subgraph.name, type));
    for (const field of type.fields.values())
      if (field.requires !== undefined) errors.push(...requiresErrors(subgraph.name, type, field));
  }
  return errors;
}

function baseKeyErrors(subgraph: ParsedSubgraph, type: SubgraphType): CompositionError[] {
  const errors: CompositionError[] = [];
  for (const key of type.baseKeys) {
    const parsed = parseFieldSet(key);
    const problem =
      'problem' in parsed
        ? `it is not a valid field set: ${parsed.problem}`
        : fieldSetProblem(parsed, type.name, subgraphLookup(subgraph));
    if (problem)
      errors.push(
        compositionError(
          'KEY_FIELDS_INVALID',
          `Subgraph '${subgraph.name}': @key(fields: "${key}") on type '${type.name}' is invalid: ${problem}`,
          { subgraphs: [subgraph.name], type: type.name },
        ),
      );
  }
  return errors;
}

function externalOnBase(subgraph: string, type: SubgraphType): CompositionError[] {
  if (ROOT_TYPES.has(type.name)) return [];
  return [...type.fields.values()]
    .filter((field) => field.external)
    .map((field) =>
      compositionError(
        'EXTERNAL_ON_BASE',
        `Subgraph '${subgraph}' marks '${type.name}.${field.name}' @external, but it defines '${type.name}' itself; @external is for fields of an extension (extend type ${type.name}) that another subgraph resolves`,
        { subgraphs: [subgraph], type: type.name, field: field.name },
      ),
    );
}

function requiresErrors(subgraph: string, type: SubgraphType, field: SubgraphField): CompositionError[] {
  const where = { subgraphs: [subgraph], type: type.name, field: field.name };
  const fail = (message: string) => [
    compositionError(
      'INVALID_REQUIRES',
      `Subgraph '${subgraph}': @requires(fields: "${field.requires}") on '${type.name}.${field.name}' ${message}`,
      where,
    ),
  ];
  if (type.hasBase)
    return fail(
      `is on a type the subgraph defines itself; @requires is for fields of an extension that need fields another subgraph resolves`,
    );
  const parsed = parseFieldSet(field.requires!);
  if ('problem' in parsed) return fail(`is not a valid field set: ${parsed.problem}`);
  return [...parsed.fields.keys()]
    .filter((name) => !type.fields.get(name)?.external)
    .flatMap((name) => fail(`names '${name}', which the extension of '${type.name}' must declare and mark @external`));
}

function providesErrors(
  subgraph: ParsedSubgraph,
  type: SubgraphType,
  field: SubgraphField,
  groups: Map<string, TypeGroup>,
): CompositionError[] {
  const where = { subgraphs: [subgraph.name], type: type.name, field: field.name };
  const fail = (message: string) => [
    compositionError(
      'INVALID_PROVIDES',
      `Subgraph '${subgraph.name}': @provides(fields: "${field.provides}") on '${type.name}.${field.name}' ${message}`,
      where,
    ),
  ];
  const returned = field.namedType;
  if (!isEntity(groups.get(returned)))
    return fail(
      `is on a field returning '${returned}', which is not an entity; @provides names fields of a returned entity`,
    );
  const parsed = parseFieldSet(field.provides!);
  if ('problem' in parsed) return fail(`is not a valid field set: ${parsed.problem}`);
  const declared = subgraph.types.get(returned);
  return [...parsed.fields.keys()]
    .filter((name) => !declared?.fields.get(name)?.external)
    .flatMap((name) =>
      fail(`names '${name}', which subgraph '${subgraph.name}' must declare on '${returned}' and mark @external`),
    );
}

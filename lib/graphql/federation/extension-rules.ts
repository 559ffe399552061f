import { addedTypeErrors, keyFieldsAddedBy, unreachableErrors } from './added-key-fields';
import { compositionError, quotedList, type CompositionError } from './composition-errors';
import {
  canonicalFieldSet,
  fieldSetOf,
  kindWord,
  withExtensionFields,
  type Declaration,
  type TypeGroup,
} from './declarations';
import { fieldSetProblem, parseFieldSet, type FieldLookup } from './field-sets';
import { isOutputSubtype } from './output-types';

/**
 * The rules for a type one subgraph defines and others extend
 * (docs/federation.md#composition-rules):
 * only an entity (a definition with `@key`) may be extended in another subgraph, its extensions
 * carry `@key` and mark the key fields `@external`, an extension that adds no field is an entity
 * stub repeating exactly one key, `@external` fields match the definition, and every other field
 * has one owner.
 */
export function extensionErrors(group: TypeGroup, lookup: FieldLookup): CompositionError[] {
  const [base] = group.bases;
  const errors: CompositionError[] = [];
  const owners = new Map([...base.type.fields.values()].filter((f) => !f.external).map((f) => [f.name, base.subgraph]));
  for (const extension of group.extensions) {
    const refusal = extensionRefusal(group.name, base, extension);
    if (refusal) {
      errors.push(refusal);
      continue;
    }
    const added = keyFieldsAddedBy(extension, base);
    errors.push(...keyErrors(group.name, base, extension, withExtensionFields(lookup, extension)));
    errors.push(...externalErrors(group.name, base, extension, added));
    const own = [...extension.type.fields.values()].filter((f) => !f.external || added.has(f.name));
    if (own.length === 0) errors.push(...stubErrors(group.name, base, extension));
    // A key field without @external is reported once, by keyErrors.
    const keyFields = topLevelKeyFields(extension);
    for (const field of own.filter((f) => !keyFields.has(f.name))) {
      const owner = owners.get(field.name);
      if (owner) {
        errors.push(
          compositionError(
            'FIELD_DEFINED_TWICE',
            `Field '${group.name}.${field.name}' is resolved by subgraphs ${quotedList([owner, extension.subgraph])}; in federation v1 a field of an entity has one owner: mark it @external in subgraph '${extension.subgraph}' or remove it there`,
            { subgraphs: [owner, extension.subgraph], type: group.name, field: field.name },
          ),
        );
      } else owners.set(field.name, extension.subgraph);
    }
  }
  errors.push(...addedTypeErrors(group));
  return errors.length > 0 ? errors : unreachableErrors(group);
}

/** Why this extension may not extend the type at all: not an entity, no `@key`, or not an object type. */
function extensionRefusal(typeName: string, base: Declaration, extension: Declaration): CompositionError | undefined {
  const where = { subgraphs: [extension.subgraph, base.subgraph], type: typeName };
  const entity = base.type.baseKeys.length > 0;
  if (extension.type.kind !== 'object' && extension.type.kind !== 'interface') {
    return compositionError(
      'INVALID_EXTENSION',
      `Subgraph '${extension.subgraph}' extends ${kindWord(extension.type.kind)} '${typeName}', which subgraph '${base.subgraph}' defines; only entities (object types with @key) can be extended in another subgraph`,
      where,
    );
  }
  if (!entity && extension.type.keys.length > 0) {
    return compositionError(
      'INVALID_EXTENSION',
      `Subgraph '${extension.subgraph}' extends type '${typeName}' with @key, but '${typeName}' is not an entity: its definition in subgraph '${base.subgraph}' has no @key`,
      where,
    );
  }
  if (!entity) {
    return compositionError(
      'INVALID_EXTENSION',
      `Subgraph '${extension.subgraph}' extends type '${typeName}', which is not an entity (its definition in subgraph '${base.subgraph}' has no @key); only entities can be extended in another subgraph`,
      where,
    );
  }
  if (extension.type.keys.length === 0) {
    return compositionError(
      'INVALID_EXTENSION',
      `Subgraph '${extension.subgraph}' extends entity '${typeName}' without @key; an extension of an entity must carry @key(fields: ...) with a key of the entity (${keyList(base)}) and mark the key fields @external`,
      where,
    );
  }
  return undefined;
}

/** Each key of the extension parses, selects fields the entity has, and its fields are declared `@external` here. */
function keyErrors(
  typeName: string,
  base: Declaration,
  extension: Declaration,
  lookup: FieldLookup,
): CompositionError[] {
  const errors: CompositionError[] = [];
  const where = { subgraphs: [extension.subgraph], type: typeName };
  for (const key of extension.type.keys) {
    const parsed = parseFieldSet(key);
    if ('problem' in parsed) {
      errors.push(
        compositionError(
          'KEY_FIELDS_INVALID',
          `Subgraph '${extension.subgraph}': @key(fields: "${key}") on type '${typeName}' is not a valid field set: ${parsed.problem}`,
          where,
        ),
      );
      continue;
    }
    const problem = fieldSetProblem(parsed, typeName, lookup);
    if (problem) {
      errors.push(
        compositionError(
          'KEY_FIELDS_INVALID',
          `Subgraph '${extension.subgraph}': @key(fields: "${key}") on the extension of '${typeName}' does not match the entity defined in subgraph '${base.subgraph}': ${problem}`,
          where,
        ),
      );
    }
    for (const name of parsed.fields.keys()) {
      const field = extension.type.fields.get(name);
      if (field?.external) continue;
      const message = field
        ? `Subgraph '${extension.subgraph}': key field '${typeName}.${name}' of the extension must be marked @external (subgraph '${base.subgraph}' resolves it)`
        : `Subgraph '${extension.subgraph}' extends entity '${typeName}' with @key(fields: "${key}") but does not declare the key field '${name}'; declare it and mark it @external`;
      errors.push(compositionError('KEY_FIELD_NOT_EXTERNAL', message, { ...where, field: name }));
    }
  }
  return errors;
}

/**
 * An `@external` field is the definition's, with the same type (key fields the extension adds
 * aside). A top-level key field of the extension may differ from the definition in non-null
 * either way, as under Apollo, whose upgrade of a v1 subgraph drops `@external` from those fields
 * and merges them as shareable: the extension only receives the key in a representation, and the
 * supergraph keeps the definition's type, since the definition resolves the field.
 */
function externalErrors(
  typeName: string,
  base: Declaration,
  extension: Declaration,
  added: Set<string>,
): CompositionError[] {
  const errors: CompositionError[] = [];
  const keyFields = topLevelKeyFields(extension);
  const compatible = (name: string, external: string, defined: string) =>
    external === defined ||
    (keyFields.has(name) && (isOutputSubtype(external, defined) || isOutputSubtype(defined, external)));
  for (const field of extension.type.fields.values()) {
    if (!field.external || added.has(field.name)) continue;
    const where = { subgraphs: [extension.subgraph, base.subgraph], type: typeName, field: field.name };
    const defined = base.type.fields.get(field.name);
    if (!defined) {
      errors.push(
        compositionError(
          'EXTERNAL_FIELD_MISMATCH',
          `Subgraph '${extension.subgraph}' marks '${typeName}.${field.name}' @external, but the definition of '${typeName}' in subgraph '${base.subgraph}' has no field '${field.name}'`,
          where,
        ),
      );
    } else if (!compatible(field.name, field.type, defined.type)) {
      const rule = keyFields.has(field.name) ? 'the same, up to non-null' : 'the same';
      errors.push(
        compositionError(
          'EXTERNAL_FIELD_MISMATCH',
          `Field '${typeName}.${field.name}' is '${field.type}' in subgraph '${extension.subgraph}' (@external) but '${defined.type}' in subgraph '${base.subgraph}', which defines it; the types must be ${rule}`,
          where,
        ),
      );
    }
  }
  return errors;
}

/**
 * An extension that adds no field is an entity stub: exactly one key of the base entity. Its key
 * fields are `@external` (keyErrors); other `@external` fields add nothing and are allowed, as a
 * subgraph that `@provides` them declares them.
 */
function stubErrors(typeName: string, base: Declaration, extension: Declaration): CompositionError[] {
  const where = { subgraphs: [extension.subgraph, base.subgraph], type: typeName };
  const baseKeys = base.type.baseKeys.map(canonicalFieldSet);
  const keys = extension.type.keys;
  if (keys.length !== 1) {
    return [
      compositionError(
        'INVALID_ENTITY_STUB',
        `Subgraph '${extension.subgraph}' declares an entity stub of '${typeName}' with ${keys.length} keys; a stub repeats exactly one key of the base entity (one of ${keyList(base)})`,
        where,
      ),
    ];
  }
  const key = canonicalFieldSet(keys[0]);
  if (!baseKeys.includes(key)) {
    return [
      compositionError(
        'INVALID_ENTITY_STUB',
        `Subgraph '${extension.subgraph}' declares an entity stub of '${typeName}' with @key(fields: "${keys[0]}"), which is not a key of the entity in subgraph '${base.subgraph}' (its keys: ${keyList(base)})`,
        where,
      ),
    ];
  }
  return [];
}

/** The fields the keys of a declaration select on the type itself (not those of nested selections). */
function topLevelKeyFields(declaration: Declaration): Set<string> {
  return new Set(declaration.type.keys.flatMap((key) => [...(fieldSetOf(key)?.fields.keys() ?? [])]));
}

function keyList(base: Declaration): string {
  return base.type.baseKeys.map((key) => `"${key}"`).join(', ');
}

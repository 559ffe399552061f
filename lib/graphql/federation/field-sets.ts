import { Kind, parse, type SelectionSetNode } from 'graphql';

/** A parsed `fields:` argument of `@key`, `@requires` or `@provides`: `id`, `upc sku`, `id organization { id }`. */
export interface FieldSet {
  /** the selection in one canonical spelling (single spaces), as the planner sends it */
  text: string;
  /** field name → its sub-selection, undefined for a leaf */
  fields: Map<string, FieldSet | undefined>;
}

/** Parses a field set, or says why it is not one (fragments, aliases and arguments are not allowed). */
export function parseFieldSet(source: string): FieldSet | { problem: string } {
  let selection: SelectionSetNode;
  try {
    const document = parse(`{ ${source} }`, { noLocation: true });
    const operation = document.definitions[0];
    if (document.definitions.length !== 1 || operation.kind !== Kind.OPERATION_DEFINITION)
      return { problem: 'it is not a selection of fields' };
    selection = operation.selectionSet;
  } catch (err) {
    return { problem: `it does not parse (${(err as Error).message.replace(/^Syntax Error: /, '')})` };
  }
  return fromSelection(selection);
}

function fromSelection(selection: SelectionSetNode): FieldSet | { problem: string } {
  const fields = new Map<string, FieldSet | undefined>();
  for (const node of selection.selections) {
    if (node.kind !== Kind.FIELD) return { problem: 'fragments are not allowed in a field set' };
    if (node.alias)
      return { problem: `aliases are not allowed in a field set (${node.alias.value}: ${node.name.value})` };
    if (node.arguments?.length) return { problem: `arguments are not allowed in a field set (${node.name.value})` };
    let nested: FieldSet | undefined;
    if (node.selectionSet) {
      const parsed = fromSelection(node.selectionSet);
      if ('problem' in parsed) return parsed;
      nested = parsed;
    }
    fields.set(node.name.value, nested);
  }
  return {
    text: [...fields].map(([name, nested]) => (nested ? `${name} { ${nested.text} }` : name)).join(' '),
    fields,
  };
}

/** What a field-set check needs of a schema: the fields of a type, and the named type each returns. */
export interface FieldLookup {
  /** field name → the name of its named type (`[Review!]!` → `Review`), or undefined when the type is unknown */
  fieldsOf(typeName: string): Map<string, string> | undefined;
}

/**
 * The first problem of selecting `set` on `typeName`: a field the type lacks, a sub-selection on a
 * leaf, or none on an object. Undefined when the selection is valid.
 */
export function fieldSetProblem(set: FieldSet, typeName: string, lookup: FieldLookup): string | undefined {
  const fields = lookup.fieldsOf(typeName);
  if (!fields) return `type '${typeName}' is not defined`;
  for (const [name, nested] of set.fields) {
    const fieldType = fields.get(name);
    if (fieldType === undefined) return `type '${typeName}' has no field '${name}'`;
    const nestedFields = lookup.fieldsOf(fieldType);
    if (nested && !nestedFields) return `field '${typeName}.${name}' is a leaf and can not have a sub-selection`;
    if (!nested && nestedFields) return `field '${typeName}.${name}' returns an object type and needs a sub-selection`;
    const problem = nested ? fieldSetProblem(nested, fieldType, lookup) : undefined;
    if (problem) return problem;
  }
  return undefined;
}

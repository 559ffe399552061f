import { compositionError, type CompositionError } from './composition-errors';
import { fieldSetOf, type Declaration, type TypeGroup } from './declarations';
import { isOutputSubtype } from './output-types';

/**
 * Federation 1 ignores `@external` on the top-level key fields of an extension (Apollo's upgrade
 * to federation 2 drops it): an extension keyed on a field the definition lacks resolves that
 * field itself, and the supergraph gains it. These are the rules of such added key fields.
 */

/** The key fields an extension marks `@external` that the definition does not have. */
export function keyFieldsAddedBy(extension: Declaration, base: Declaration | undefined): Set<string> {
  const added = new Set<string>();
  if (extension.type.hasBase) return added;
  for (const key of extension.type.keys) {
    for (const name of fieldSetOf(key)?.fields.keys() ?? []) {
      if (extension.type.fields.get(name)?.external && !base?.type.fields.has(name)) added.add(name);
    }
  }
  return added;
}

/** A key field several extensions add has one type in all of them, up to non-null. */
export function addedTypeErrors(group: TypeGroup): CompositionError[] {
  const errors: CompositionError[] = [];
  const first = new Map<string, Declaration>();
  for (const extension of group.extensions) {
    for (const name of keyFieldsAddedBy(extension, group.bases[0])) {
      const earlier = first.get(name);
      if (!earlier) {
        first.set(name, extension);
        continue;
      }
      const [a, b] = [earlier.type.fields.get(name)!.type, extension.type.fields.get(name)!.type];
      if (isOutputSubtype(a, b) || isOutputSubtype(b, a)) continue;
      const types = `'${a}' in subgraph '${earlier.subgraph}' and '${b}' in subgraph '${extension.subgraph}'`;
      const message =
        `Key field '${group.name}.${name}', which the definition of '${group.name}' does not have, is ${types}; ` +
        'the extensions that add it must give it the same type (non-null or not)';
      const where = { subgraphs: [earlier.subgraph, extension.subgraph], type: group.name, field: name };
      errors.push(compositionError('EXTERNAL_FIELD_MISMATCH', message, where));
    }
  }
  return errors;
}

/**
 * The gateway reaches an entity in the subgraph that defines it, then in every extension one of
 * whose keys a subgraph already reached resolves. An extension keyed only on fields no reached
 * subgraph resolves (a key field it adds and nobody else can provide) could never be fetched.
 */
export function unreachableErrors(group: TypeGroup): CompositionError[] {
  const [base] = group.bases;
  const resolved = [resolvedFields(base, base)];
  const provided = (name: string) => resolved.some((fields) => fields.has(name));
  const reachable = (key: string) => [...(fieldSetOf(key)?.fields.keys() ?? [])].every(provided);
  const waiting = new Set(group.extensions);
  for (let progress = true; progress;) {
    progress = false;
    for (const extension of waiting) {
      if (!extension.type.keys.some(reachable)) continue;
      resolved.push(resolvedFields(extension, base));
      waiting.delete(extension);
      progress = true;
    }
  }
  const baseKeys = base.type.baseKeys.map((key) => `"${key}"`).join(', ');
  return [...waiting].map((extension) => {
    const keys = extension.type.keys.map((key) => `@key(fields: "${key}")`).join(' ');
    const message =
      `Subgraph '${extension.subgraph}' extends entity '${group.name}' with ${keys}, but no other subgraph ` +
      `resolves those key fields, so its fields of '${group.name}' can never be fetched; give the extension ` +
      `a key of the definition in subgraph '${base.subgraph}' (${baseKeys})`;
    return compositionError('UNREACHABLE_EXTENSION', message, {
      subgraphs: [extension.subgraph, base.subgraph],
      type: group.name,
    });
  });
}

function resolvedFields(declaration: Declaration, base: Declaration): Set<string> {
  const added = keyFieldsAddedBy(declaration, base);
  const fields = [...declaration.type.fields.values()].filter((f) => !f.external || added.has(f.name));
  return new Set(fields.map((f) => f.name));
}

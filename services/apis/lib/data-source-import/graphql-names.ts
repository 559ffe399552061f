/**
 * Names of the generated graph, following the reference gateway's converters: types in
 * PascalCase, fields and arguments in camelCase, every name reduced to what GraphQL allows.
 */

/** Splits `find_pet-by ID`, `findPetByID`, `/pets/{petId}` into words. */
function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '');
}

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();

/** A name GraphQL accepts: no leading digit, never the reserved `__` prefix. */
function legal(name: string, fallback: string): string {
  if (name === '') return fallback;
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

export function pascalCase(text: string, fallback = 'Unnamed'): string {
  return legal(words(text).map(capitalise).join(''), fallback);
}

export function camelCase(text: string, fallback = 'unnamed'): string {
  const pascal = words(text).map(capitalise).join('');
  return legal(pascal.charAt(0).toLowerCase() + pascal.slice(1), fallback);
}

/** The reference's name of an operation without an operationId: method and path, e.g. `postPetsPetId`. */
export function fieldNameFromEndpoint(method: string, path: string): string {
  return camelCase(`${method.toLowerCase()} ${path}`);
}

/** The last segment of a JSON pointer such as `#/components/schemas/Pet`. */
export function refName(ref: string): string {
  return decodeURIComponent(ref.split('/').pop() ?? '')
    .replace(/~1/g, '/')
    .replace(/~0/g, '~');
}

/** A name GraphQL accepts as an enum value, unchanged (so the value sent upstream is the document's). */
export function isEnumValueName(value: unknown): value is string {
  return (
    typeof value === 'string' && /^[_A-Za-z][_0-9A-Za-z]*$/.test(value) && !['true', 'false', 'null'].includes(value)
  );
}

/** A URL-safe slug of a title, for the generated listen path. */
export function slug(text: string): string {
  const slugged = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
  return slugged === '' ? 'data-graph' : slugged;
}

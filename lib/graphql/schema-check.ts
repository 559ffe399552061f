import { parse } from 'graphql';
import { validateSDL } from 'graphql/validation/validate';

/**
 * The schema checks of a dashboard save (docs/graphql.md#schemas-on-the-dashboard): duplicated
 * operation types, type names, field names or enum values, and unknown types. One message per
 * problem; an empty list means the schema is valid.
 */
export function schemaProblems(sdl: string): string[] {
  let document;
  try {
    document = parse(sdl);
  } catch (err) {
    return [(err as Error).message];
  }
  return validateSDL(document).map((error) => error.message);
}

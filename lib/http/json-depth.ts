/**
 * How deeply a request body's JSON may nest. Real API definitions, sessions and policies stay
 * well under 20 levels; the limit only has to keep recursive code (validation, serialisation
 * on the bus) from running out of stack on a hostile body.
 */
export const MAX_JSON_DEPTH = 100;

/**
 * The deepest nesting of objects and arrays in a JSON text, counted without parsing it (one
 * linear scan, no recursion), stopping as soon as `limit` is passed. Brackets inside strings
 * do not count.
 */
export function jsonDepthExceeds(text: string, limit: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
  return false;
}

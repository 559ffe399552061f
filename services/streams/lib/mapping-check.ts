import { MappingSyntaxError, parseMapping } from '../bloblang';

/** A Bloblang mapping's syntax error as text (for save-time refusal), or undefined when it parses. */
export function streamMappingCheck(text: string): string | undefined {
  const parsed = parseMapping(text);
  return parsed instanceof MappingSyntaxError ? `the mapping does not parse: ${parsed.message}` : undefined;
}

import { MappingSyntaxError, parseInterpolation, parseMapping } from '../bloblang';

/**
 * A Bloblang mapping's (or, with `interpolation`, an interpolated string's `${! … }` parts')
 * syntax error as text, for save-time refusal; undefined when it parses.
 */
export function streamMappingCheck(text: string, kind: 'mapping' | 'interpolation' = 'mapping'): string | undefined {
  if (kind === 'interpolation') {
    const parsed = parseInterpolation(text);
    return parsed instanceof MappingSyntaxError ? `the interpolation does not parse: ${parsed.message}` : undefined;
  }
  const parsed = parseMapping(text);
  return parsed instanceof MappingSyntaxError ? `the mapping does not parse: ${parsed.message}` : undefined;
}

import { MappingSyntaxError } from './errors';
import { parseInterpolation } from './interpolation';
import { parseMapping } from './runner';

/** Fields of a stream configuration that hold a whole mapping (Bento's names). */
const MAPPING_FIELDS = new Set(['mapping', 'bloblang', 'mutation', 'request_map', 'result_map', 'check']);

export interface ConfigMappingError {
  /** where in the configuration, e.g. `pipeline.processors[0].mapping` */
  path: string;
  error: MappingSyntaxError;
}

/**
 * Every mapping and interpolated string (`${! … }`) of a stream configuration that does not
 * parse, so a definition with one is refused when saved (400, naming field, line and column)
 * rather than failing each message later.
 */
export function findMappingErrors(config: unknown, path = ''): ConfigMappingError[] {
  const errors: ConfigMappingError[] = [];
  const visit = (value: unknown, at: string, key: string | null): void => {
    if (typeof value === 'string') {
      const result =
        key !== null && MAPPING_FIELDS.has(key)
          ? parseMapping(value)
          : value.includes('${!')
            ? parseInterpolation(value)
            : null;
      if (result instanceof MappingSyntaxError) errors.push({ path: at, error: result });
      return;
    }
    if (Array.isArray(value)) {
      value.forEach((item, i) => visit(item, `${at}[${i}]`, null));
      return;
    }
    if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) visit(v, at ? `${at}.${k}` : k, k);
    }
  };
  visit(config, path, null);
  return errors;
}

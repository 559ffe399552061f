import { pathPattern } from './endpoint-rules';
import type { PathMatcher } from '../../../lib/patterns/endpoint-pattern';

/**
 * One per-endpoint list of `extended_paths` (`size_limits`, `transform_headers`,
 * `mock_response`, `validate_request`, …): entries `{path, method, disabled, …}` tried in array
 * order; the first whose path and method match decides. Entries switched off (`disabled: true`,
 * or `enabled: false`) are skipped, as in the reference gateway, unless they also say
 * `stop_matching: true`: then a match ends the search with no value. That is how an OAS
 * operation listed first keeps a later catch-all (`/pets/{id}` after `/pets/mine`) from
 * applying to it (services/apis/lib/oas/to-classic-operations.ts writes them).
 */
export interface EndpointLookup<T> {
  find(method: string, relativePath: string): T | undefined;
}

interface CompiledEntry<T> {
  pattern: PathMatcher;
  /** '' = any method */
  method: string;
  value: T | undefined;
}

/** Compiles a list once; undefined when no entry is switched on (the feature's step stays out of the chain). */
export function compileEndpointEntries<T>(
  entries: unknown,
  ignoreCase: boolean,
  read: (entry: Record<string, unknown>) => T | undefined,
): EndpointLookup<T> | undefined {
  if (!Array.isArray(entries)) return undefined;
  const compiled: Array<CompiledEntry<T>> = [];
  for (const entry of entries) {
    if (typeof entry !== 'object' || entry === null) continue;
    const raw = entry as Record<string, unknown>;
    const off = raw.disabled === true || raw.enabled === false;
    if (off && raw.stop_matching !== true) continue;
    compiled.push({
      pattern: pathPattern(typeof raw.path === 'string' ? raw.path : '/', ignoreCase),
      method: typeof raw.method === 'string' ? raw.method.toUpperCase() : '',
      value: off ? undefined : read(raw),
    });
  }
  if (!compiled.some((entry) => entry.value !== undefined)) return undefined;
  return {
    find(method, relativePath) {
      for (const entry of compiled) {
        if ((entry.method === '' || entry.method === method) && entry.pattern.test(relativePath)) return entry.value;
      }
      return undefined;
    },
  };
}

import type { CompiledVersion } from '../compiled-api';
import { compileEndpointEntries } from '../endpoint-entries';
import { compileUrlRewrite } from './url-rewrite';

type EndpointRouting = Pick<CompiledVersion, 'urlRewrites' | 'methodTransforms' | 'internalEndpoints'>;

/**
 * The per-endpoint lists that change where a request goes: `url_rewrites` (see url-rewrite.ts),
 * `method_transforms` `{path, method, to_method}` and `internal` `{path, method}` (reachable only
 * from an internal loop, `gw://…`).
 */
export function compileEndpointRouting(
  extended: Record<string, unknown> | undefined,
  ignoreCase: boolean,
): EndpointRouting {
  return {
    urlRewrites: compileEndpointEntries(extended?.url_rewrites, ignoreCase, (entry) =>
      compileUrlRewrite(entry, ignoreCase),
    ),
    methodTransforms: compileEndpointEntries(extended?.method_transforms, ignoreCase, (entry) =>
      typeof entry.to_method === 'string' && entry.to_method !== '' ? entry.to_method.toUpperCase() : undefined,
    ),
    internalEndpoints: compileEndpointEntries(extended?.internal, ignoreCase, () => true as const),
  };
}

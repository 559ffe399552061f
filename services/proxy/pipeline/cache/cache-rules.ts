import { createHash } from 'node:crypto';
import type { ApiDefinition } from '../../../../contracts/apis/api-definition';
import { compileTenantPattern, type TenantPattern } from '../../../../lib/patterns/tenant-pattern';
import { compileEndpointEntries, type EndpointLookup } from '../endpoint-entries';

/** How one request is cached: for how long, which statuses, and what of its body goes into the key. */
export interface CachePlan {
  ttlSeconds: number;
  /** statuses that are cached; empty = every status */
  codes: number[];
  /** `cache_key_regex`: only the part of the body it matches goes into the key */
  bodyKey: TenantPattern | undefined;
}

/** The API's `cache_options` plus a version's `extended_paths.cache` and `advance_cache_config`. */
export interface CacheRules {
  planFor(method: string, relativePath: string): CachePlan | undefined;
}

export interface CacheOptions {
  timeout: number;
  codes: number[];
  allSafe: boolean;
  byHeaders: string[];
  upstreamControl: boolean;
  ttlHeader: string;
  /** changes with every change of the definition: entries of an older definition are never found */
  fingerprint: string;
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export function readCacheOptions(definition: ApiDefinition): CacheOptions | undefined {
  const raw = (definition.cache_options ?? {}) as Record<string, unknown>;
  if (raw.enable_cache !== true) return undefined;
  return {
    timeout: Number(raw.cache_timeout) > 0 ? Number(raw.cache_timeout) : 60,
    codes: numbers(raw.cache_response_codes),
    allSafe: raw.cache_all_safe_requests === true,
    byHeaders: Array.isArray(raw.cache_by_headers)
      ? raw.cache_by_headers.filter((h): h is string => typeof h === 'string').map((h) => h.toLowerCase())
      : [],
    upstreamControl: raw.enable_upstream_cache_control === true,
    ttlHeader:
      typeof raw.cache_control_ttl_header === 'string' && raw.cache_control_ttl_header !== ''
        ? raw.cache_control_ttl_header.toLowerCase()
        : 'x-gw-cache-action-set-ttl',
    fingerprint: fingerprintOf(definition),
  };
}

/**
 * `advance_cache_config` `{path, method, cache_key_regex, cache_response_codes, timeout}` comes
 * first (any method, POST included); then `cache` (a list of paths, safe methods only); then,
 * with `cache_all_safe_requests`, every GET, HEAD and OPTIONS request.
 */
export function compileCacheRules(
  options: CacheOptions,
  extended: Record<string, unknown> | undefined,
  ignoreCase: boolean,
): CacheRules {
  const advanced: EndpointLookup<CachePlan> | undefined = compileEndpointEntries(
    extended?.advance_cache_config,
    ignoreCase,
    (entry) => ({
      ttlSeconds: Number(entry.timeout) > 0 ? Number(entry.timeout) : options.timeout,
      codes: numbers(entry.cache_response_codes).length > 0 ? numbers(entry.cache_response_codes) : options.codes,
      bodyKey:
        typeof entry.cache_key_regex === 'string' && entry.cache_key_regex !== ''
          ? compileTenantPattern(entry.cache_key_regex)
          : undefined,
    }),
  );
  const plain: CachePlan = { ttlSeconds: options.timeout, codes: options.codes, bodyKey: undefined };
  const paths = Array.isArray(extended?.cache)
    ? (extended.cache as unknown[]).map((path) => (typeof path === 'string' ? { path } : path))
    : undefined;
  const listed = compileEndpointEntries(paths, ignoreCase, () => plain);
  return {
    planFor(method, relativePath) {
      const advancedPlan = advanced?.find(method, relativePath);
      if (advancedPlan) return advancedPlan;
      if (!SAFE.has(method)) return undefined;
      return listed?.find(method, relativePath) ?? (options.allSafe ? plain : undefined);
    },
  };
}

/**
 * Changes when the definition does. The store's own row id is left out: it is the same on every
 * node sharing a store, and two stores holding the same definition should share its entries.
 */
function fingerprintOf(definition: ApiDefinition): string {
  const { id: _storeId, ...rest } = definition;
  return createHash('sha256').update(JSON.stringify(rest)).digest('base64url').slice(0, 16);
}

function numbers(value: unknown): number[] {
  return Array.isArray(value) ? value.map(Number).filter((n) => Number.isInteger(n)) : [];
}
